// Package compare sets two sets of lockbench results side by side, cell by cell, the
// way benchstat does for `go test -bench`: the median and its 95% interval per side,
// the change, and whether a Mann-Whitney U test finds it beyond the noise the samples
// show. The samples are a cell's repeats, or else the intervals of its measured part.
package compare

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// Options tune the verdicts.
type Options struct {
	// Stores declare the strategies' safety order, in which groups are listed.
	Stores *backend.Catalog
	// Alpha is the p-value under which a change counts as real (default 0.05).
	Alpha float64
	// Threshold is the relative change a significant worsening must reach to fail the
	// comparison (default 0.05): smaller ones are shown, but a CI gate passes them.
	Threshold float64
	// Correction adjusts the p-values for the number of figures compared: stats.Holm
	// (default: the gate's exit status is one decision over all figures, and Holm keeps
	// the family-wise bound whatever the other figures do) or stats.BH.
	Correction string
	// RunAllowance is the slowdown factor less one that a worsening seen only in the
	// intervals of one run a side must exceed to fail the gate, for want of a measured
	// run-to-run spread; zero trusts the intervals alone (DefaultOptions has 0.5).
	RunAllowance float64
}

// DefaultOptions are what `lockbench compare` uses unless told otherwise.
func DefaultOptions() Options {
	return Options{Alpha: 0.05, Threshold: 0.05, Correction: stats.Holm, RunAllowance: DefaultRunAllowance}
}

// Verdicts.
const (
	Unchanged = "unchanged" // the same samples on both sides
	Noise     = "~"         // not significant at alpha
	Worse     = "worse"
	Better    = "better"
)

// Row compares one metric of one cell.
type Row struct {
	Cell     string
	Metric   string // "acquire p50", "acquire p99", "cycles/s", "update p50", ...
	Rate     bool   // a rate per second, else a latency in nanoseconds
	Samples  string // ByRepeat, ByInterval or ByRun
	Old, New []float64
	// OldSpread and NewSpread are each side's median and its 95% interval.
	OldSpread, NewSpread Spread
	Delta                float64 // (new-old)/old of the medians
	P                    float64 // the Mann-Whitney p-value; 1 when untested
	// Adjusted is P adjusted for every figure of the comparison (Options.Correction):
	// the verdict's p-value.
	Adjusted float64
	// RunNoise says how the verdict sees the noise between runs (NoiseInSamples,
	// NoiseMeasured, NoiseUnmeasured, NoiseTailUnmeasured), and Allowance is the
	// slowdown factor less one a worsening must exceed for it (0 when the samples hold
	// it, infinite for a tail from one run a side).
	RunNoise  string
	Allowance float64
	// TooFew says the samples cannot reach alpha whatever they hold.
	TooFew  bool
	Verdict string
	// Regression says the row is significantly worse by at least the threshold: it
	// fails the comparison.
	Regression bool
	tested     bool    // the samples were tested (not too few, not identical)
	factor     float64 // how many times worse new is: above 1 worse, below 1 better
}

// Geomean is the geometric mean of one metric's medians over every compared cell.
type Geomean struct {
	Metric   string
	Rate     bool
	Old, New float64
	Delta    float64
	Cells    int
}

// Result is a whole comparison.
type Result struct {
	Rows               []Row
	Geomeans           []Geomean // one per metric, in table order
	Cells              int       // cells found on both sides
	OnlyOld, OnlyNew   []string
	EnvironmentChanges []string
	Options            Options
}

// Compare compares old against new. Repeats are every cell of the same name, whether
// repeated inside one run or across several runs given for one side.
func Compare(old, new []*resultsdir.Run, opts Options) Result {
	if opts.Alpha <= 0 {
		opts.Alpha = 0.05
	}
	if opts.Threshold <= 0 {
		opts.Threshold = 0.05
	}
	if opts.Correction == "" {
		opts.Correction = stats.Holm
	}
	res := Result{Options: opts}
	oldGroups, newGroups := stats.Groups(opts.Stores, old...), stats.Groups(opts.Stores, new...)
	newByName := map[string]*stats.Group{}
	for _, g := range newGroups {
		newByName[g.Name] = g
	}
	// The smallest level a corrected figure is tested at: alpha over the family.
	level := opts.Alpha / float64(max(1, familySize(oldGroups, newByName)))
	seen := map[string]bool{}
	for _, og := range oldGroups {
		ng, ok := newByName[og.Name]
		if !ok {
			res.OnlyOld = append(res.OnlyOld, og.Name)
			continue
		}
		seen[og.Name] = true
		res.Cells++
		kind := sampleKind(og, ng, level)
		for _, m := range metricsFor(og, ng) {
			row := compareRow(og.Name, m, kind, samples(og, m, kind), samples(ng, m, kind), opts)
			row.RunNoise, row.Allowance = runNoise(og, ng, m, kind, level, opts)
			res.Rows = append(res.Rows, row)
		}
	}
	for _, g := range newGroups {
		if !seen[g.Name] {
			res.OnlyNew = append(res.OnlyNew, g.Name)
		}
	}
	decide(res.Rows, opts)
	res.Geomeans = geomeans(res.Rows)
	if len(old) > 0 && len(new) > 0 {
		res.EnvironmentChanges = environmentChanges(old[0].Environment, new[0].Environment)
	}
	return res
}

func compareRow(cell string, m metric, kind string, old, new []float64, opts Options) Row {
	r := Row{Cell: cell, Metric: m.name, Rate: m.rate, Samples: kind, Old: old, New: new,
		OldSpread: spreadOf(old), NewSpread: spreadOf(new), P: 1}
	if o := r.OldSpread.Median; o != 0 {
		r.Delta = (r.NewSpread.Median - o) / o
	}
	r.factor = slowdownFactor(r, m.higherWorse)
	r.TooFew = smallestP(len(old), len(new)) >= opts.Alpha
	switch {
	case sameSamples(old, new):
		r.Verdict = Unchanged
	case r.TooFew:
		r.Verdict = Noise
	default:
		r.P, r.tested = mannWhitneyP(old, new), true
	}
	return r
}

// familySize counts the figures two sides have in common: the number of tests the
// correction accounts for.
func familySize(oldGroups []*stats.Group, newByName map[string]*stats.Group) int {
	n := 0
	for _, og := range oldGroups {
		if ng, ok := newByName[og.Name]; ok {
			n += len(metricsFor(og, ng))
		}
	}
	return n
}

// runNoise says how a row's verdict sees the noise between runs: in the samples when
// they are repeats; else measured from the repeats some side has; else not at all,
// and then the stated allowance stands in for it, except for a tail, which is not gated.
func runNoise(old, new *stats.Group, m metric, kind string, level float64, opts Options) (string, float64) {
	if kind == ByRepeat {
		return NoiseInSamples, 0
	}
	if sd, df := runSpread(old, new, m); df > 0 {
		return NoiseMeasured, measuredAllowance(sd, df, len(old.Repeats), len(new.Repeats), level)
	}
	if m.tail {
		return NoiseTailUnmeasured, math.Inf(1)
	}
	return NoiseUnmeasured, opts.RunAllowance
}

// geomeans summarizes each metric over the cells where both medians are positive.
func geomeans(rows []Row) []Geomean {
	var out []Geomean
	index := map[string]int{}
	logs := map[string][2]float64{}
	for _, r := range rows {
		if _, ok := index[r.Metric]; !ok {
			index[r.Metric] = len(out)
			out = append(out, Geomean{Metric: r.Metric, Rate: r.Rate})
		}
		if r.OldSpread.Median <= 0 || r.NewSpread.Median <= 0 {
			continue
		}
		l := logs[r.Metric]
		logs[r.Metric] = [2]float64{l[0] + math.Log(r.OldSpread.Median), l[1] + math.Log(r.NewSpread.Median)}
		out[index[r.Metric]].Cells++
	}
	for i := range out {
		g := &out[i]
		if g.Cells == 0 {
			continue
		}
		l := logs[g.Metric]
		g.Old, g.New = math.Exp(l[0]/float64(g.Cells)), math.Exp(l[1]/float64(g.Cells))
		g.Delta = g.New/g.Old - 1
	}
	return out
}

func sameSamples(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := append([]float64(nil), a...), append([]float64(nil), b...)
	sort.Float64s(x)
	sort.Float64s(y)
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// environmentChanges lists what differs between the machines and builds of two runs:
// a reason to distrust a comparison.
func environmentChanges(a, b resultsdir.Environment) []string {
	var out []string
	field := func(name, x, y string) {
		if x != y {
			out = append(out, fmt.Sprintf("%s: %q -> %q", name, x, y))
		}
	}
	field("go", a.GoVersion, b.GoVersion)
	field("redis", a.RedisServer, b.RedisServer)
	field("provider", a.Provider, b.Provider)
	field("cores", fmt.Sprint(a.Cores), fmt.Sprint(b.Cores))
	field("gomaxprocs", fmt.Sprint(a.GOMAXPROCS), fmt.Sprint(b.GOMAXPROCS))
	field("os/arch", a.OS+"/"+a.Arch, b.OS+"/"+b.Arch)
	field("host", a.Hostname, b.Hostname)
	mods := map[string]bool{}
	for m := range a.Libraries {
		mods[m] = true
	}
	for m := range b.Libraries {
		mods[m] = true
	}
	var names []string
	for m := range mods {
		names = append(names, m)
	}
	sort.Strings(names)
	for _, m := range names {
		field(m, a.Libraries[m], b.Libraries[m])
	}
	return out
}

// Regressions are the rows that fail the comparison: significantly worse by at least
// the threshold.
func (r Result) Regressions() []Row {
	var out []Row
	for _, row := range r.Rows {
		if row.Regression {
			out = append(out, row)
		}
	}
	return out
}

// Summary counts the verdicts in one line.
func (r Result) Summary() string {
	count := map[string]int{}
	for _, row := range r.Rows {
		count[row.Verdict]++
	}
	if len(r.Rows) > 0 && count[Unchanged] == len(r.Rows) && len(r.OnlyOld) == 0 && len(r.OnlyNew) == 0 {
		return fmt.Sprintf("unchanged: all %d compared figures are identical", len(r.Rows))
	}
	worse := fmt.Sprintf("%d worse", count[Worse])
	if n := len(r.Regressions()); count[Worse] > 0 {
		worse += fmt.Sprintf(" (%d failing the gate)", n)
	}
	parts := []string{
		worse, fmt.Sprintf("%d better", count[Better]),
		fmt.Sprintf("%d within noise (~)", count[Noise]), fmt.Sprintf("%d unchanged", count[Unchanged]),
	}
	if len(r.OnlyOld) > 0 {
		parts = append(parts, fmt.Sprintf("%d cells only in old", len(r.OnlyOld)))
	}
	if len(r.OnlyNew) > 0 {
		parts = append(parts, fmt.Sprintf("%d cells only in new", len(r.OnlyNew)))
	}
	return strings.Join(parts, ", ") +
		fmt.Sprintf(" (%d figures of %d cell%s, alpha %g)", len(r.Rows), r.Cells, plural(r.Cells), r.Options.Alpha)
}

// percent prints a fraction as a percentage without needless digits: 5%, 2.5%.
func percent(f float64) string {
	return fmt.Sprintf("%s%%", strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", 100*f), "0"), "."))
}
