package report

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"text/template"
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

// reportTemplateText holds report.md's prose; this file only prepares the values it shows.
//
//go:embed report.md.tmpl
var reportTemplateText string

var reportTemplate = template.Must(template.New("report.md.tmpl").
	Funcs(template.FuncMap{"join": strings.Join}).
	Parse(reportTemplateText))

// reportView is every value report.md shows; the sections other files write come rendered.
type reportView struct {
	Measured                 measuredView
	Reading, Capacity        string
	Figures                  []Figure
	Tables                   *tablesView // nil without lock cells
	DataCorrectness, Updates string
}

func markdown(run *resultsdir.Run, figs []Figure, opts Options, data *dataSection) string {
	lockRun, updateCells := SplitUpdates(run)
	groups := stats.Groups(opts.Stores, lockRun)
	metric := stats.LatencyMetric(groups)
	v := reportView{Measured: measuredOf(opts.Stores, run, groups), Figures: figs}
	if len(lockRun.Cells) > 0 {
		v.Reading = written(func(b *strings.Builder) { writeReading(b, opts.Stores, groups, metric) })
		if opts.SLO != nil {
			v.Capacity = written(func(b *strings.Builder) { writeCapacity(b, opts.Stores, lockRun, *opts.SLO) })
		}
		v.Tables = tablesOf(groups, metric)
	}
	if data != nil {
		v.DataCorrectness = written(func(b *strings.Builder) {
			writeDataCorrectness(b, opts.Stores, data.ways, data.figure)
		})
	}
	if len(updateCells) > 0 {
		v.Updates = written(func(b *strings.Builder) { writeUpdates(b, updateCells) })
	}
	var b strings.Builder
	if err := reportTemplate.ExecuteTemplate(&b, "report", v); err != nil {
		panic("report.md.tmpl: " + err.Error()) // the template and its values are both this package's
	}
	return b.String()
}

// written is what write puts in a fresh builder: the sections still written in Go.
func written(write func(*strings.Builder)) string {
	var b strings.Builder
	write(&b)
	return b.String()
}

// measuredView is what was measured, on what.
type measuredView struct {
	Started, Finished string // Finished "" while the run is unfinished
	Complete          bool
	Cells             int
	Distinct          int // distinct conditions when some cells repeat, else 0
	Strategies        string
	Durations         *cellTimes // nil when cells differ
	Environment       []environmentRow
}

// cellTimes is how long every cell measured, after its warm-up.
type cellTimes struct{ Measured, Warmup string }

// environmentRow is one line of the environment block; its key is "" after the first of a list.
type environmentRow struct{ Key, Value string }

func measuredOf(stores *backend.Catalog, run *resultsdir.Run, groups []*stats.Group) measuredView {
	env := run.Environment
	v := measuredView{
		Started:    run.Started.UTC().Format(time.RFC3339),
		Complete:   run.Complete,
		Cells:      len(run.Cells),
		Strategies: strings.Join(quoted(cellStrategies(stores, run)), ", "),
	}
	if !run.Finished.IsZero() {
		v.Finished = run.Finished.UTC().Format(time.RFC3339)
	}
	if lockRun, _ := SplitUpdates(run); len(lockRun.Cells) > 0 && len(groups) != len(lockRun.Cells) {
		v.Distinct = len(groups)
	}
	if d, w := cellDurations(run); d != "" {
		v.Durations = &cellTimes{d, w}
	}
	row := func(k, value string) {
		if value != "" {
			v.Environment = append(v.Environment, environmentRow{k, value})
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
	return v
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

// tablesView is the latency and throughput tables, one per condition held constant.
type tablesView struct {
	MetricWords string
	Repeated    bool // some cell was repeated: figures are medians, with a runs column
	Tables      []conditionTable
}

// conditionTable is one table: its condition, its columns and its rows of cells.
type conditionTable struct {
	Hold, TTL, Network string
	Open               bool
	Arrival            string
	Head, Align        []string
	Rows               [][]string
}

func tablesOf(groups []*stats.Group, metric string) *tablesView {
	v := &tablesView{MetricWords: metricWords(metric)}
	for _, g := range groups {
		v.Repeated = v.Repeated || len(g.Repeats) > 1
	}
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
		t := conditionTable{Hold: k.hold.String(), TTL: k.ttl.String(), Network: first.NetworkLabel(),
			Open: first.Open(), Arrival: first.Arrival}
		t.Head = []string{"strategy", "clients", "keys"}
		t.Align = []string{"---", "---:", "---:"}
		if t.Open {
			t.Head = append(t.Head, "offered/s", "achieved/s")
			t.Align = append(t.Align, "---:", "---:")
		}
		t.Head = append(t.Head, "p50", "p99", "p99.9", "cycles/s", "refused", "errors")
		t.Align = append(t.Align, "---:", "---:", "---:", "---:", "---:", "---:")
		if v.Repeated {
			t.Head, t.Align = append(t.Head, "runs"), append(t.Align, "---:")
		}
		for _, g := range rows[k] {
			c := g.Condition
			cells := []string{"`" + g.Strategy + "`", fmt.Sprint(c.Clients), fmt.Sprint(c.Keys)}
			if t.Open {
				cells = append(cells, stats.FormatRate(c.TargetRate), stats.FormatRate(g.AchievedRate()))
			}
			cells = append(cells,
				latencyCell(g, metric, stats.P50), latencyCell(g, metric, stats.P99), latencyCell(g, metric, stats.P999),
				stats.FormatRate(g.Throughput()), refused(g), fmt.Sprint(errorCount(g)))
			if v.Repeated {
				cells = append(cells, fmt.Sprint(len(g.Repeats)))
			}
			t.Rows = append(t.Rows, cells)
		}
		v.Tables = append(v.Tables, t)
	}
	return v
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
