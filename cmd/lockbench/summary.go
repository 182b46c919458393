package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/lockbench/lockbench/resultsdir"
)

// writeSummary prints one row per measured cell.
func writeSummary(w io.Writer, run *resultsdir.Run) {
	if len(run.Cells) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "strategy\tclients\tkeys\tnetwork\tload\tcycles/s\tattempt p50\tp99\tp99.9\tacquire p99\trefused\terrors\t")
	for _, c := range run.Cells {
		attempt, acquire := c.Latency[resultsdir.MetricAttempt], c.Latency[resultsdir.MetricAcquire]
		load := c.Load.Mode
		if c.Load.Mode == "open" {
			load = fmt.Sprintf("open %g/s", c.Load.TargetRate)
		}
		network := c.Network.Profile
		if c.Network.Latency > 0 {
			network = fmt.Sprintf("%s %v", c.Network.Profile, c.Network.Latency)
		}
		var errs int64
		for _, n := range c.Errors {
			errs += n
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%.0f\t%s\t%s\t%s\t%s\t%.0f%%\t%d\t\n", c.Strategy, c.Clients, c.Keys, network, load,
			c.CyclesPerSecond, ns(float64(attempt.P50)), ns(float64(attempt.P99)), ns(float64(attempt.P999)),
			ns(float64(acquire.P99)), 100*c.ContendedFailureRatio, errs)
	}
	tw.Flush()
}
