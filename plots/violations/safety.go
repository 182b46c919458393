// Package violations draws the safety figures: each measured share of broken trials
// against its scenario's parameter, and how long the overlaps lasted.
package violations

import (
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/safety/results"
)

// safetyBuilders are the kinds of safety figure, in the order results.md shows them.
var safetyBuilders = []func(stores *backend.Catalog, rep *results.Report) ([]plots.Drawn, error){
	safetySeriesFigures,
	// Its rows are variants, not strategies: it needs no looks.
	func(_ *backend.Catalog, rep *results.Report) ([]plots.Drawn, error) { return overlapFigure(rep) },
}

// WriteSafety draws every figure the safety reports have data for into dir/figures,
// as PNG and SVG, and returns them in order. A report without series or overlaps
// draws nothing; nothing at all leaves no figures folder behind. It reads the lab's
// results schema directly: safety/results imports no servers or lock clients. stores
// give the strategies their looks.
func WriteSafety(dir string, stores *backend.Catalog, reports []*results.Report) ([]plots.Figure, error) {
	ds, err := buildSafety(stores, reports)
	if err != nil {
		return nil, err
	}
	return plots.Write(dir, ds)
}

// buildSafety draws every safety figure in memory, all before any is written.
func buildSafety(stores *backend.Catalog, reports []*results.Report) ([]plots.Drawn, error) {
	var all []plots.Drawn
	for _, rep := range reports {
		if rep == nil {
			continue
		}
		for _, build := range safetyBuilders {
			ds, err := build(stores, rep)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", rep.Scenario, err)
			}
			all = append(all, ds...)
		}
	}
	return all, nil
}

// safetySlug turns free words ("delay from grant to master kill (ms)") into a
// file-name part ("delay-from-grant-to-master-kill"): the unit in brackets is dropped.
func safetySlug(words string) string {
	if i := strings.Index(words, "("); i >= 0 {
		words = words[:i]
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(words) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '=', r == '.':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		case r == '\'':
			// "replica's" reads as "replicas"
		default:
			dash = true
		}
	}
	return b.String()
}
