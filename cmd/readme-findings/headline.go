package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lockbench/lockbench/safety/results"
)

// The headline is failover-loss's lost locks, one row per guard and one column per kill
// delay, under the run's own figure of them: the same folder as the findings block.
const (
	headlineBegin    = "<!-- headline: begin (scripts/readme-findings.sh writes this block) -->"
	headlineEnd      = "<!-- headline: end -->"
	headlineScenario = "failover-loss"
	headlineFigure   = "failover-loss_vs-delay" // the figure's name, against the kill delay
)

// headlineBlock is the figure and the table of failover-loss's delay variants, each
// cell one condition (a guard at a delay), never pooled. readmeDir is where the README
// is (absolute), for the figure's link.
func headlineBlock(res results.Results, dir, readmeDir string) (string, error) {
	var rep *results.Report
	for _, r := range res.Reports {
		if r.Scenario == headlineScenario {
			rep = r
		}
	}
	if rep == nil {
		return "",
			usageError{fmt.Sprintf("%s has no %s report: the headline is drawn from it (run --all)", dir, headlineScenario)}
	}
	figure, err := figureLink(res, dir, readmeDir)
	if err != nil {
		return "", err
	}
	var modes []string
	var delays []time.Duration
	type condition struct {
		mode  string
		delay time.Duration
	}
	cell := map[condition]string{}
	for _, v := range rep.Variants {
		delay, err := time.ParseDuration(v.Params["delay"])
		if err != nil || v.Params["mode"] == "" {
			continue // the zombie and the stalled replicas: no kill delay
		}
		if !slices.Contains(modes, v.Params["mode"]) {
			modes = append(modes, v.Params["mode"])
		}
		if !slices.Contains(delays, delay) {
			delays = append(delays, delay)
		}
		cell[condition{v.Params["mode"], delay}] = results.Headline(rep.Scenario, v)
	}
	if len(modes) == 0 {
		return "", usageError{fmt.Sprintf("%s: %s has no variant with a mode and a kill delay", dir, headlineScenario)}
	}
	slices.Sort(delays)
	var b strings.Builder
	fmt.Fprintf(&b, "![%s: locks lost against the delay from grant to master kill](%s)\n\n", headlineScenario, figure)
	fmt.Fprintf(&b, "Locks lost by %s in folder `%s` (written into this block by `scripts/readme-findings.sh %s`): "+
		"the Sentinel master is SIGKILLed the delay after granting a lock while its replicas lag; a trial is judged once a "+
		"replica was promoted and the key read there. Each cell is one condition, with its 95%% Wilson interval.\n\n",
		headlineScenario, filepath.Base(dir), dir)
	b.WriteString("| guard |")
	for _, d := range delays {
		fmt.Fprintf(&b, " killed %s after the grant |", d)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(delays)) + "\n")
	for _, m := range modes {
		fmt.Fprintf(&b, "| %s |", m)
		for _, d := range delays {
			text, ok := cell[condition{m, d}]
			if !ok {
				text = "not run"
			}
			fmt.Fprintf(&b, " %s |", text)
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}

// figureLink is the path of the run's failover-loss figure as the README links it.
func figureLink(res results.Results, dir, readmeDir string) (string, error) {
	for _, f := range res.Figures {
		if strings.HasPrefix(f.Name, headlineFigure) && len(f.Files) > 0 {
			abs, err := filepath.Abs(filepath.Join(dir, f.Files[0]))
			if err != nil {
				return "", err
			}
			rel, err := filepath.Rel(readmeDir, abs)
			if err != nil {
				return "", err
			}
			return filepath.ToSlash(rel), nil
		}
	}
	return "", usageError{fmt.Sprintf("%s lists no figure %s*: the headline shows it", dir, headlineFigure)}
}
