// Package compare sets two sets of lockbench results side by side, cell by cell, the
// way benchstat does for `go test -bench`: medians, change in percent, and whether the
// change is beyond the noise that repeated runs show.
package compare

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/report/digest"
	"github.com/lockbench/lockbench/resultsdir"
)

// Options tune the verdicts.
type Options struct {
	// Alpha is the p-value under which a change with repeats on both sides counts as
	// real (default 0.05).
	Alpha float64
	// Threshold is the relative change under which a change without repeats is called
	// "~": with one sample a side, noise cannot be measured (default 0.05).
	Threshold float64
}

// Verdicts.
const (
	Unchanged = "unchanged" // the same samples on both sides
	Noise     = "~"         // a difference within noise (or under the threshold)
	Worse     = "worse"
	Better    = "better"
)

// Row compares one metric of one cell.
type Row struct {
	Cell     string
	Metric   string // "acquire p50", "acquire p99", "cycles/s"
	Old, New []float64
	// OldMedian and NewMedian are in nanoseconds for latencies, per second for cycles/s.
	OldMedian, NewMedian float64
	Delta                float64 // (new-old)/old
	Verdict              string
	Basis                string // how the verdict was reached: "p=0.008 n=5+5" or "no repeats"
}

// Result is a whole comparison.
type Result struct {
	Rows                   []Row
	OnlyOld, OnlyNew       []string
	EnvironmentChanges     []string
	OldRepeats, NewRepeats int // most samples of any cell per side
}

// metricSpec is one compared quantity: how to read its samples and which way is worse.
type metricSpec struct {
	name        string
	samples     func(g *digest.Group) []float64
	higherWorse bool
	latency     bool
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
	oldGroups, newGroups := digest.Groups(old...), digest.Groups(new...)
	metric := digest.LatencyMetric(append(append([]*digest.Group{}, oldGroups...), newGroups...))
	specs := []metricSpec{
		{metric + " p50", func(g *digest.Group) []float64 { return g.LatencySamples(metric, digest.P50) }, true, true},
		{metric + " p99", func(g *digest.Group) []float64 { return g.LatencySamples(metric, digest.P99) }, true, true},
		{"cycles/s", (*digest.Group).ThroughputSamples, false, false},
	}
	var res Result
	newByName := map[string]*digest.Group{}
	for _, g := range newGroups {
		newByName[g.Name] = g
		res.NewRepeats = max(res.NewRepeats, len(g.Repeats))
	}
	seen := map[string]bool{}
	for _, og := range oldGroups {
		res.OldRepeats = max(res.OldRepeats, len(og.Repeats))
		ng, ok := newByName[og.Name]
		if !ok {
			res.OnlyOld = append(res.OnlyOld, og.Name)
			continue
		}
		seen[og.Name] = true
		for _, s := range specs {
			if s.latency && (!og.HasLatency(metric) || !ng.HasLatency(metric)) {
				continue
			}
			res.Rows = append(res.Rows, compareRow(og.Name, s, s.samples(og), s.samples(ng), opts))
		}
	}
	for _, g := range newGroups {
		if !seen[g.Name] {
			res.OnlyNew = append(res.OnlyNew, g.Name)
		}
	}
	if len(old) > 0 && len(new) > 0 {
		res.EnvironmentChanges = environmentChanges(old[0].Environment, new[0].Environment)
	}
	return res
}

func compareRow(cell string, s metricSpec, old, new []float64, opts Options) Row {
	r := Row{Cell: cell, Metric: s.name, Old: old, New: new, OldMedian: digest.Median(old), NewMedian: digest.Median(new)}
	if r.OldMedian != 0 {
		r.Delta = (r.NewMedian - r.OldMedian) / r.OldMedian
	}
	direction := Better
	if (r.NewMedian > r.OldMedian) == s.higherWorse {
		direction = Worse
	}
	switch {
	case sameSamples(old, new):
		r.Verdict, r.Basis = Unchanged, "identical samples"
	case len(old) >= 2 && len(new) >= 2:
		p := mannWhitneyP(old, new)
		r.Basis = fmt.Sprintf("p=%.3f n=%d+%d", p, len(old), len(new))
		r.Verdict = Noise
		if p < opts.Alpha && r.NewMedian != r.OldMedian {
			r.Verdict = direction
		}
	default:
		r.Basis = fmt.Sprintf("no repeats: |Δ| vs %.0f%%", 100*opts.Threshold)
		r.Verdict = Noise
		if math.Abs(r.Delta) >= opts.Threshold {
			r.Verdict = direction
		}
	}
	return r
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

// Summary counts the verdicts in one line.
func (r Result) Summary() string {
	count := map[string]int{}
	for _, row := range r.Rows {
		count[row.Verdict]++
	}
	if len(r.Rows) > 0 && count[Unchanged] == len(r.Rows) && len(r.OnlyOld) == 0 && len(r.OnlyNew) == 0 {
		return fmt.Sprintf("unchanged: all %d compared figures are identical", len(r.Rows))
	}
	parts := []string{
		fmt.Sprintf("%d worse", count[Worse]), fmt.Sprintf("%d better", count[Better]),
		fmt.Sprintf("%d within noise (~)", count[Noise]), fmt.Sprintf("%d unchanged", count[Unchanged]),
	}
	if len(r.OnlyOld) > 0 {
		parts = append(parts, fmt.Sprintf("%d cells only in old", len(r.OnlyOld)))
	}
	if len(r.OnlyNew) > 0 {
		parts = append(parts, fmt.Sprintf("%d cells only in new", len(r.OnlyNew)))
	}
	return strings.Join(parts, ", ")
}
