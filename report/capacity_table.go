package report

import (
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/stats"
)

// CapacityCell is a search's answer as a table cell: the highest rate kept with its
// precision, or why there is no server capacity to quote.
func CapacityCell(s capacity.SearchRecord) string {
	switch {
	case s.GeneratorBound:
		return fmt.Sprintf("generator-bound at %s/s (kept %s/s)", stats.FormatRate(s.Broke), stats.FormatRate(s.Kept))
	case s.Kept == 0:
		return fmt.Sprintf("none (%s/s broke it: %s)", stats.FormatRate(s.Broke), s.BrokeWhy)
	case s.Broke == 0:
		return fmt.Sprintf("≥ %s/s (never broke up to the highest rate allowed)", stats.FormatRate(s.Kept))
	case !s.Converged:
		return fmt.Sprintf("%s/s, +%.0f%% broke it (not converged)", stats.FormatRate(s.Kept), 100*s.Precision)
	}
	return fmt.Sprintf("%s/s (+%.1f%% broke it)", stats.FormatRate(s.Kept), 100*s.Precision)
}

// searchCondition describes the condition of a search in words.
func searchCondition(s capacity.SearchRecord) string {
	return fmt.Sprintf("%s on %s, hold %s, %s arrivals", plural(s.Clients, "client"), plural(s.Keys, "key"), s.Hold, s.Arrival)
}

// writeSearchedCapacity is the section of a `lockbench capacity` folder: one row per
// search, and what saturated at its top probes; then its knee figures.
func writeSearchedCapacity(b *strings.Builder, rec capacity.Record, figs []Figure) {
	fmt.Fprintf(b, "## Capacity searched: the highest offered rate that kept %s\n\n", rec.SLO)
	fmt.Fprintf(b, "For each strategy and condition the open-loop rate grew by 2× until the budget broke, then was bisected until the highest rate kept and the lowest broken were within %.1f%%. A rate is kept when two probes kept it and broken when two broke it (a third settles a split), each with at least %d samples of `%s` beyond its warm-up, at least %.0f%% of the offered rate delivered, and errors and drops at most %.1f%% of requests. Every probe is a cell of this folder (`results.json`); verdicts and CPU are in `%s`. CPU is cores busy over the probes at the kept and the broken rate, read from /proc (warm-up included); a server counts as saturated at %.0f%% of one core (Redis runs commands on one thread), the generator at %.0f%% of its cores.\n\n",
		100*rec.Precision, rec.MinSamples, rec.Metric, 100*capacity.MinDelivered, 100*capacity.MaxFaultShare, capacity.RecordFile, 100*capacity.SaturatedShare, 100*capacity.SaturatedShare)
	b.WriteString("| strategy | condition | highest rate within budget | what saturated | CPU at the top probes (cores) | servers | probes |\n|---|---|---|---|---|---:|---:|\n")
	for _, s := range rec.Searches {
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s | %d | %d |\n", s.Strategy, searchCondition(s), CapacityCell(s), s.Saturated, cpuList(s), s.Servers, len(s.Probes))
	}
	b.WriteString("\n")
	writeFigureList(b, figs)
}

// cpuList prints the generator first, then each server.
func cpuList(s capacity.SearchRecord) string {
	parts := []string{fmt.Sprintf("lockbench %.2f of %g", s.TopCPU["lockbench"], s.ClientCores)}
	for _, name := range sortedKeys(s.TopCPU) {
		switch name {
		case "lockbench":
		case capacity.MachineName:
			parts = append(parts, fmt.Sprintf("whole machine %.2f of %g", s.TopCPU[name], s.MachineCores))
		default:
			parts = append(parts, fmt.Sprintf("%s %.2f", name, s.TopCPU[name]))
		}
	}
	return strings.Join(parts, ", ")
}
