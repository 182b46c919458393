package runs

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"text/tabwriter"

	"github.com/lockbench/lockbench/resultsdir"
)

// WriteSummary prints one row per measured cell: lock cycles, then updates.
func WriteSummary(w io.Writer, run *resultsdir.Run) {
	var lockCells, updateCells []resultsdir.Cell
	for _, c := range run.Cells {
		if c.IsUpdate() {
			updateCells = append(updateCells, c)
		} else {
			lockCells = append(lockCells, c)
		}
	}
	if len(lockCells) > 0 {
		writeLockSummary(w, lockCells)
	}
	if len(updateCells) > 0 {
		writeUpdateSummary(w, updateCells)
	}
}

func writeLockSummary(w io.Writer, cells []resultsdir.Cell) {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	floors := slices.ContainsFunc(cells, func(c resultsdir.Cell) bool { return c.Floor != nil })
	header := "strategy\tclients\tkeys\tnetwork\tload\tcycles/s\tattempt p50\tp99\tp99.9\tacquire p99\t"
	if floors { // the wait no lock can beat, beside the wait measured
		header += "floor p99\t"
	}
	fmt.Fprintln(tw, header+"refused\terrors\t")
	for _, c := range cells {
		attempt, acquire := c.Latency[resultsdir.MetricAttempt], c.Latency[resultsdir.MetricAcquire]
		load := c.Load.Mode
		if c.Load.Mode == "open" {
			load = fmt.Sprintf("open %g/s", c.Load.TargetRate)
		}
		keys := strconv.Itoa(c.Keys)
		if c.KeyDist != "" {
			keys += " " + c.KeyDist
		}
		network := c.Network.Profile
		if c.Network.Latency > 0 {
			network = fmt.Sprintf("%s %v", c.Network.Profile, c.Network.Latency)
		}
		p50, p99, p999 := attempt.P50.Rounded(), attempt.P99.Rounded(), attempt.P999.Rounded()
		if attempt.Count == 0 && c.Granted > 0 {
			p50, p99, p999 = "-", "-", "-" // a library's own wait: no attempt is seen from outside
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%.0f\t%s\t%s\t%s\t%s\t", strategyOf(c), c.Clients, keys, network, load,
			c.CyclesPerSecond, p50, p99, p999, acquire.P99.Rounded())
		if floors {
			fmt.Fprintf(tw, "%s\t", floorP99(c.Floor))
		}
		fmt.Fprintf(tw, "%.0f%%\t%d\t\n", 100*c.ContendedFailureRatio, errorCount(c))
	}
	tw.Flush()
}

// strategyOf names a cell's strategy with the servers' policy when the run set one.
func strategyOf(c resultsdir.Cell) string {
	if c.AppendFsync == "" {
		return c.Strategy
	}
	return c.Strategy + " appendfsync=" + c.AppendFsync
}

// floorP99 prints a cell's queueing floor at p99: "-" without one, "unbounded" when a
// saturated key makes it so.
func floorP99(f *resultsdir.QueueFloor) string {
	if f == nil {
		return "-"
	}
	if d, ok := f.Wait["p99"]; ok {
		return d.Rounded()
	}
	return "unbounded"
}

// writeUpdateSummary prints the cost of one correct update per cell, and what the
// audit found: lost updates without faults are a finding, not noise.
func writeUpdateSummary(w io.Writer, cells []resultsdir.Cell) {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "strategy\tguard\tclients\trows\tupdates/s\tupdate "+
		"p50\tp99\tp99.9\tretries/update\trefused\tlost\terrors\t")
	for _, c := range cells {
		u, lat := c.Update, c.Latency[resultsdir.MetricUpdate]
		if u == nil {
			continue
		}
		guard := c.Guard
		if guard == "" {
			guard = "(lock-free)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.0f\t%s\t%s\t%s\t%.2f\t%d\t%d\t%d\t\n", strategyOf(c), guard, c.Clients, c.Keys,
			u.UpdatesPerSecond, lat.P50.Rounded(), lat.P99.Rounded(), lat.P999.Rounded(),
			u.RetriesPerUpdate, u.Refused, u.LostUpdates, errorCount(c))
	}
	tw.Flush()
	for _, c := range cells {
		if c.Update != nil && (c.Update.LostUpdates != 0 || c.Update.Duplicates != 0) {
			fmt.Fprintf(w, "FINDING: %s lost %d updates (%d duplicates) without any fault injected\n", c.Name,
				c.Update.LostUpdates, c.Update.Duplicates)
		}
	}
}

func errorCount(c resultsdir.Cell) int64 {
	var n int64
	for _, v := range c.Errors {
		n += v
	}
	return n
}
