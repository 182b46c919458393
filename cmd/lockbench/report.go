package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/outputs"
	"github.com/lockbench/lockbench/report"
)

func init() {
	commands["report"] = command{"write report.md and figures/ into a results folder: lockbench report DIR [--slo " +
		"p99=5ms] [--strategy S] [--safety SAFETYDIR]", runReport}
}

// listFlag collects a flag given several times or as a comma-separated list.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// parseInterspersed parses flags that may come before or after the positional
// arguments (`report DIR --slo p99=5ms`), which the flag package alone stops at.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func runReport(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := commandFlags("report", stderr)
	sloText := fs.String("slo", "",
		"latency budget for the capacity answer, e.g. p99=5ms (acquire latency) or attempt:p99.9=1ms")
	var strategies listFlag
	fs.Var(&strategies, "strategy", "only this strategy (repeat or comma-separate for several)")
	var safetyDirs listFlag
	fs.Var(&safetyDirs, "safety", "a `lockbench safety --scenario lost-updates` results folder: adds the table \"what "+
		"keeps the data correct\" (repeat for several)")
	dirs, err := parseInterspersed(fs, args)
	if err != nil {
		return usagef("%v", err)
	}
	if len(dirs) != 1 {
		return usagef("want one results folder, got %d arguments: lockbench report DIR [--slo p99=5ms] [--strategy S]",
			len(dirs))
	}
	opts := report.Options{Stores: linked.Catalog(), Strategies: strategies, Safety: safetyDirs}
	if *sloText != "" {
		slo, err := report.ParseSLO(*sloText)
		if err != nil {
			return usagef("%v", err)
		}
		opts.SLO = &slo
	}
	res, err := outputs.WriteResult(dirs[0], opts)
	var bad report.InputError
	if errors.As(err, &bad) {
		return usageError{bad.Error()}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s and %d figures\n", res.Path, len(res.Figures))
	for _, f := range res.Figures {
		fmt.Fprintf(stdout, "  %s\n", f.Files[0])
	}
	if opts.SLO != nil {
		fmt.Fprintf(stdout, "\ncapacity: highest offered rate that kept %s (open-loop cells):\n", opts.SLO)
		if len(res.Capacities) == 0 {
			fmt.Fprintln(stdout, "  none: the run holds no open-loop cells")
		}
		for _, c := range res.Capacities {
			fmt.Fprintf(stdout, "  %s\n", c.Sentence(*opts.SLO))
		}
	}
	return nil
}
