package report

import (
	_ "embed"
	"fmt"
	"strings"
	"text/template"

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
	return fmt.Sprintf("%s on %s, hold %s, %s arrivals", plural(s.Clients, "client"), plural(s.Keys, "key"), s.Hold,
		s.Arrival)
}

// capacityTableText holds the capacity section's prose; this file prepares its values.
//
//go:embed capacity_table.md.tmpl
var capacityTableText string

var capacityTable = template.Must(template.New("capacity_table.md.tmpl").Parse(capacityTableText))

// searchedCapacityView is the searched-capacity section's values: the search's rules, then one row per search.
type searchedCapacityView struct {
	SLO, Metric, RecordFile string
	MinSamples              int64
	PrecisionPercent        float64
	MinDeliveredPercent     float64
	MaxFaultPercent         float64
	SaturatedPercent        float64
	Searches                []searchRow
}

// searchRow is one search as a row of the table.
type searchRow struct {
	Strategy, Condition, Capacity, Saturated, CPU string
	Servers, Probes                               int
}

// writeSearchedCapacity is the section of a `lockbench capacity` folder: one row per
// search, and what saturated at its top probes; then its knee figures.
func writeSearchedCapacity(b *strings.Builder, rec capacity.Record, figs []Figure) {
	v := searchedCapacityView{
		SLO: rec.SLO, Metric: rec.Metric, RecordFile: capacity.RecordFile, MinSamples: rec.MinSamples,
		PrecisionPercent: 100 * rec.Precision, MinDeliveredPercent: 100 * capacity.MinDelivered,
		MaxFaultPercent: 100 * capacity.MaxFaultShare, SaturatedPercent: 100 * capacity.SaturatedShare,
	}
	for _, s := range rec.Searches {
		v.Searches = append(v.Searches, searchRow{s.Strategy, searchCondition(s), CapacityCell(s), s.Saturated,
			cpuList(s), s.Servers, len(s.Probes)})
	}
	if err := capacityTable.ExecuteTemplate(b, "searched capacity", v); err != nil {
		panic("capacity_table.md.tmpl: " + err.Error()) // the template and its values are both this package's
	}
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
