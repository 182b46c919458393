package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// Markdown renders the report of a run. Every number in it is read or computed from
// the run; the same run gives the same bytes.
func Markdown(run *resultsdir.Run, figs []Figure, opts Options) string {
	return markdown(run, figs, opts, nil)
}

// dataSection is the "what keeps the data correct" section, when the report joins a
// run with safety results.
type dataSection struct {
	ways   []*Way
	figure string // path of the cost-vs-loss figure, relative to the results folder
}

func markdown(run *resultsdir.Run, figs []Figure, opts Options, data *dataSection) string {
	lockRun, updateCells := SplitUpdates(run)
	groups := stats.Groups(opts.Stores, lockRun)
	metric := stats.LatencyMetric(groups)
	var b strings.Builder
	b.WriteString("# Lock strategies compared: lockbench report\n\n")
	writeMeasured(&b, opts.Stores, run, groups)
	if len(lockRun.Cells) > 0 {
		writeReading(&b, opts.Stores, groups, metric)
		if opts.SLO != nil {
			writeCapacity(&b, opts.Stores, lockRun, *opts.SLO)
		}
	}
	writeFigures(&b, figs)
	if len(lockRun.Cells) > 0 {
		writeTables(&b, groups, metric)
	}
	if data != nil {
		writeDataCorrectness(&b, opts.Stores, data.ways, data.figure)
	}
	if len(updateCells) > 0 {
		writeUpdates(&b, updateCells)
	}
	return b.String()
}

func writeMeasured(b *strings.Builder, stores *backend.Catalog, run *resultsdir.Run, groups []*stats.Group) {
	env := run.Environment
	b.WriteString("## What was measured, on what\n\n")
	state := "complete"
	if !run.Complete {
		state = "INCOMPLETE (interrupted or still running): read the numbers as partial"
	}
	fmt.Fprintf(b, "Run started %s", run.Started.UTC().Format(time.RFC3339))
	if !run.Finished.IsZero() {
		fmt.Fprintf(b, ", finished %s", run.Finished.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(b, "; %s. %d cells", state, len(run.Cells))
	if lockRun, _ := SplitUpdates(run); len(lockRun.Cells) > 0 && len(groups) != len(lockRun.Cells) {
		fmt.Fprintf(b, " (%d distinct, the others repeats)", len(groups))
	}
	fmt.Fprintf(b, ", strategies %s.", strings.Join(quoted(cellStrategies(stores, run)), ", "))
	if d, w := cellDurations(run); d != "" {
		fmt.Fprintf(b, " Each cell measured for %s after a warm-up of %s.", d, w)
	}
	b.WriteString(" Every cell is listed in `results.csv`; latency histograms are in `histograms/`.\n\n")

	b.WriteString("```text\n")
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(b, "%-12s %s\n", k, v)
		}
	}
	row("go", env.GoVersion)
	row("redis", env.RedisServer)
	row("provider", env.Provider)
	row("cores", fmt.Sprintf("%d (GOMAXPROCS %d)", env.Cores, env.GOMAXPROCS))
	row("os/arch", env.OS+"/"+env.Arch)
	row("host", env.Hostname)
	row("seed", fmt.Sprint(env.Seed))
	row("command", strings.Join(env.CommandLine, " "))
	for i, k := range sortedKeys(env.Libraries) {
		row(map[bool]string{true: "libraries"}[i == 0], k+" "+env.Libraries[k])
	}
	for i, k := range sortedKeys(env.Topologies) {
		row(map[bool]string{true: "topologies"}[i == 0], k+": "+env.Topologies[k])
	}
	for i, k := range sortedKeys(env.Waiting) {
		row(map[bool]string{true: "waiting"}[i == 0], k+": "+env.Waiting[k])
	}
	b.WriteString("```\n\n")
}

// cellDurations summarises the measured and warm-up durations, "" when cells differ.
func cellDurations(run *resultsdir.Run) (string, string) {
	d, w := run.Cells[0].Duration, run.Cells[0].Warmup
	for _, c := range run.Cells {
		if c.Duration != d || c.Warmup != w {
			return "", ""
		}
	}
	return d.String(), w.String()
}

// tableKey is what one table holds constant: hold, TTL, network and load mode.
type tableKey struct {
	hold, ttl          time.Duration
	network, slow      string
	netLatency, jitter time.Duration
	load, arrival      string
}

func keyOf(c stats.Condition) tableKey {
	return tableKey{c.Hold, c.TTL, c.Network, c.SlowNode, c.NetLatency, c.Jitter, c.Load, c.Arrival}
}

func writeTables(b *strings.Builder, groups []*stats.Group, metric string) {
	b.WriteString("## Latency and throughput by condition\n\n")
	fmt.Fprintf(b, "Latency columns are the %s; `cycles/s` counts completed acquire-hold-release cycles per second; `refused` is the share of attempts refused because another client held the key.", metricWords(metric))
	repeated := false
	for _, g := range groups {
		repeated = repeated || len(g.Repeats) > 1
	}
	if repeated {
		b.WriteString(" Where a cell was repeated, each figure is the median of its repeats (`runs`).")
	}
	b.WriteString("\n\n")
	var keys []tableKey
	rows := map[tableKey][]*stats.Group{}
	for _, g := range groups { // groups come sorted by condition, so tables and rows do too
		k := keyOf(g.Condition)
		if _, ok := rows[k]; !ok {
			keys = append(keys, k)
		}
		rows[k] = append(rows[k], g)
	}
	for _, k := range keys {
		first := rows[k][0].Condition
		open := first.Open()
		load := "closed loop"
		if open {
			load = fmt.Sprintf("open loop, %s arrivals", first.Arrival)
		}
		fmt.Fprintf(b, "### hold %s, TTL %s, %s, %s\n\n", k.hold, k.ttl, first.NetworkLabel(), load)
		head := []string{"strategy", "clients", "keys"}
		align := []string{"---", "---:", "---:"}
		if open {
			head = append(head, "offered/s", "achieved/s")
			align = append(align, "---:", "---:")
		}
		head = append(head, "p50", "p99", "p99.9", "cycles/s", "refused", "errors")
		align = append(align, "---:", "---:", "---:", "---:", "---:", "---:")
		if repeated {
			head, align = append(head, "runs"), append(align, "---:")
		}
		fmt.Fprintf(b, "| %s |\n|%s|\n", strings.Join(head, " | "), strings.Join(align, "|"))
		for _, g := range rows[k] {
			c := g.Condition
			cells := []string{"`" + g.Strategy + "`", fmt.Sprint(c.Clients), fmt.Sprint(c.Keys)}
			if open {
				cells = append(cells, stats.FormatRate(c.TargetRate), stats.FormatRate(g.AchievedRate()))
			}
			cells = append(cells,
				latencyCell(g, metric, stats.P50), latencyCell(g, metric, stats.P99), latencyCell(g, metric, stats.P999),
				stats.FormatRate(g.Throughput()), refused(g), fmt.Sprint(errorCount(g)))
			if repeated {
				cells = append(cells, fmt.Sprint(len(g.Repeats)))
			}
			fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
		}
		b.WriteString("\n")
	}
}

func latencyCell(g *stats.Group, metric string, p stats.Percentile) string {
	if !g.HasLatency(metric) {
		return "–"
	}
	return stats.FormatDuration(g.Latency(metric, p))
}

// refused is the median share of refused attempts, as a percentage.
func refused(g *stats.Group) string {
	var shares []float64
	for _, c := range g.Repeats {
		shares = append(shares, c.ContendedFailureRatio)
	}
	return fmt.Sprintf("%.1f%%", 100*stats.Median(shares))
}

// errorCount sums errors of every kind over every repeat.
func errorCount(g *stats.Group) int64 {
	var n int64
	for _, c := range g.Repeats {
		for _, v := range c.Errors {
			n += v
		}
	}
	return n
}

func metricWords(metric string) string {
	if metric == resultsdir.MetricAcquire {
		return "time to acquire the lock, retries included (`acquire`)"
	}
	return "time of one acquire attempt (`attempt`)"
}

func writeFigures(b *strings.Builder, figs []Figure) {
	if len(figs) == 0 {
		return
	}
	b.WriteString("## Figures\n\n")
	for _, f := range figs {
		fmt.Fprintf(b, "![%s](%s)\n\n%s [SVG](%s)\n\n", f.Name, f.Files[0], f.Caption, f.Files[1])
	}
}

func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "`" + n + "`"
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// writeTable writes a section (its heading, its introduction, its table's header) with
// rows as its table, and says whether it did: no rows, no section.
func writeTable(b *strings.Builder, heading, intro, header string, rows []string) bool {
	if len(rows) == 0 {
		return false
	}
	b.WriteString(heading)
	b.WriteString(intro)
	b.WriteString(header)
	b.WriteString(strings.Join(rows, "\n") + "\n\n")
	return true
}
