package compare

import (
	"bytes"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	moremath "github.com/aclements/go-moremath/stats"

	"github.com/lockbench/lockbench/report/synth"
	"github.com/lockbench/lockbench/resultsdir"
)

func TestMannWhitneyMatchesHandCountedCases(t *testing.T) {
	for _, tc := range []struct {
		name string
		x, y []float64
		want float64
	}{
		// Full separation of 5 and 5: 2 orderings of 252 are this extreme.
		{"separated", []float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}, 2.0 / 252},
		// Interleaved 3 and 3: rank sums 9 (and 12) or further from 10.5 in 14 of 20 splits.
		{"interleaved", []float64{1, 3, 5}, []float64{2, 4, 6}, 0.7},
		// Tied pairs: mid-ranks 1.5, 3.5, 5.5; x's sum 6.5 or one as far from 10.5 in 4 of 20.
		{"ties", []float64{1, 1, 2}, []float64{2, 3, 3}, 0.2},
		{"all tied", []float64{4, 4, 4}, []float64{4, 4, 4}, 1},
	} {
		if got := mannWhitneyP(tc.x, tc.y); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: p = %g, want %g", tc.name, got, tc.want)
		}
	}
	// Separated samples with ties: tiny, exactly and by the normal approximation.
	for _, n := range []int{30, 40} {
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = float64(i%10), float64(100+i%10)
		}
		if p := mannWhitneyP(x, y); p > 1e-6 {
			t.Errorf("%d+%d separated samples with ties: p = %g, want tiny", n, n, p)
		}
	}
}

// At the largest samples with ties that benchmath counts exactly (25 a side), its
// normal approximation must agree with the exact count: above them it is all there is.
func TestExactAndNormalPValuesAgreeAtTheLimit(t *testing.T) {
	n := moremath.MannWhitneyTiesExactLimit
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = math.Round(10*rng.NormFloat64()), math.Round(10*rng.NormFloat64()+3) // ties on purpose
		}
		exact, normal := mannWhitneyP(x, y), normalApproximationP(t, x, y)
		if math.Abs(exact-normal) > 0.02 {
			t.Errorf("trial %d: exact p %.4f, normal approximation %.4f", trial, exact, normal)
		}
	}
}

// normalApproximationP is mannWhitneyP with moremath's exact limits lowered to none.
func normalApproximationP(t *testing.T, x, y []float64) float64 {
	t.Helper()
	exact, exactTies := moremath.MannWhitneyExactLimit, moremath.MannWhitneyTiesExactLimit
	defer func() { moremath.MannWhitneyExactLimit, moremath.MannWhitneyTiesExactLimit = exact, exactTies }()
	moremath.MannWhitneyExactLimit, moremath.MannWhitneyTiesExactLimit = 0, 0
	return mannWhitneyP(x, y)
}

func TestSmallestPSaysWhenAlphaIsOutOfReach(t *testing.T) {
	for _, tc := range []struct {
		n1, n2 int
		want   float64
	}{{1, 1, 1}, {3, 3, 0.1}, {4, 4, 2.0 / 70}, {10, 10, 2.0 / 184756}} {
		if got := smallestP(tc.n1, tc.n2); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("n=%d+%d: smallest p %g, want %g", tc.n1, tc.n2, got, tc.want)
		}
	}
}

func TestMedianIntervalCoversTheMedianAtLeast95Percent(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{6, 10, 20} {
		covered, trials := 0, 4000
		for i := 0; i < trials; i++ {
			v := make([]float64, n)
			for j := range v {
				v[j] = math.Exp(rng.NormFloat64()) // median 1
			}
			s := spreadOf(v)
			if !s.Bounded {
				t.Fatalf("n=%d: no interval", n)
			}
			if s.Low <= 1 && 1 <= s.High {
				covered++
			}
		}
		// Order-statistic intervals cover at least 95% by construction; allow sampling error.
		if share := float64(covered) / float64(trials); share < 0.94 {
			t.Errorf("n=%d: the interval held the median in %.1f%% of trials, want >= 95%%", n, 100*share)
		}
	}
	if s := spreadOf([]float64{1, 2, 3, 4, 5}); s.Bounded || s.Median != 3 {
		t.Errorf("5 samples: %+v; want median 3 and no interval", s)
	}
}

// verdictShares counts, per metric, the share of rows with each verdict over trials
// comparing a stationary synthetic source with itself slowed down by slowdown; "all"
// pools the metrics. Trials run in parallel, each on its own seeds.
func verdictShares(trials int, slowdown float64, o synth.Options) map[string]map[string]float64 {
	results := make([]Result, trials)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range results {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			a, b := o, o
			a.Seed, b.Seed, b.Slowdown = uint64(2*i+2), uint64(2*i+3), slowdown
			results[i] = Compare([]*resultsdir.Run{generated(a)}, []*resultsdir.Run{generated(b)}, Options{Stores: fixtureStores})
		}(i)
	}
	wg.Wait()
	counts, rows := map[string]map[string]int{}, map[string]int{}
	for _, res := range results {
		for _, r := range res.Rows {
			for _, m := range []string{metricKind(r.Metric), "all"} {
				if counts[m] == nil {
					counts[m] = map[string]int{}
				}
				counts[m][r.Verdict]++
				rows[m]++
			}
		}
	}
	out := map[string]map[string]float64{}
	for m, c := range counts {
		out[m] = map[string]float64{"rows": float64(rows[m])}
		for v, n := range c {
			out[m][v] = float64(n) / float64(rows[m])
		}
	}
	return out
}

// metricKind names a metric without its latency: "p50", "p99" or "rate".
func metricKind(metric string) string {
	if strings.HasSuffix(metric, "/s") {
		return "rate"
	}
	return metric[strings.LastIndex(metric, " ")+1:]
}

// TestAATheSameSourceTwiceIsNoise is the A/A test: a stationary synthetic source
// measured twice, over 20 pairs of seeds (600 cells a metric; 200 pairs and 6000
// cells under -long), must read ~ in at least 95% of cells at alpha 0.05. A level-0.05
// test flags at most 5% of figures in expectation (4.3% at 10+10 without ties, nearer
// 5% with the ties of HdrHistogram values), so each metric's share flagged may exceed
// 5% only by its sampling error (2.5 standard errors), while the share over all
// figures must be at least 95%.
func TestAATheSameSourceTwiceIsNoise(t *testing.T) {
	shares := verdictShares(tableSize(200, 20), 1, synth.Options{Stores: fixtureStores, Small: true, Stationary: true})
	for _, m := range []string{"p50", "p99", "rate", "all"} {
		s := shares[m]
		flagged := s[Worse] + s[Better]
		t.Logf("%s: %.2f%% ~, %.2f%% worse, %.2f%% better (%.0f cells)", m, 100*s[Noise], 100*s[Worse], 100*s[Better], s["rows"])
		if bound := 0.05 + 2.5*math.Sqrt(0.05*0.95/s["rows"]); flagged > bound {
			t.Errorf("%s: %.2f%% of cells flagged between two runs of one source, more than alpha allows (%.2f%%)", m, 100*flagged, 100*bound)
		}
	}
	if s := shares["all"]; s[Noise] < 0.95 {
		t.Errorf("%.2f%% of figures read ~ between two runs of one source, want >= 95%%", 100*s[Noise])
	}
}

// TestTenPercentSlowdownIsFoundWorse is the other half: the same source slowed by 10%
// must be found worse in at least 95% of trials at the default 10 intervals.
func TestTenPercentSlowdownIsFoundWorse(t *testing.T) {
	shares := verdictShares(tableSize(30, 10), 1.1, synth.Options{Stores: fixtureStores, Small: true, Stationary: true})
	for m, s := range shares {
		t.Logf("%s: %.1f%% worse, %.1f%% ~", m, 100*s[Worse], 100*s[Noise])
	}
	for _, m := range []string{"p50", "rate"} {
		if s := shares[m]; s[Worse] < 0.95 {
			t.Errorf("%s: a 10%% slowdown found worse in %.1f%% of cells, want >= 95%%", m, 100*s[Worse])
		}
	}
}

func synthRun(t *testing.T, o synth.Options) *resultsdir.Run {
	t.Helper()
	o.Small, o.Samples, o.NoHistograms = true, 300, true
	run, err := synth.Write(t.TempDir(), o)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func verdicts(res Result, metric string) map[string]int {
	n := map[string]int{}
	for _, r := range res.Rows {
		if strings.HasSuffix(r.Metric, metric) {
			n[r.Verdict]++
		}
	}
	return n
}

func TestRepeatsAreTheSamplesWhenTheyCanReachAlpha(t *testing.T) {
	// Eight repeats a side reach 0.05 over 90 figures (smallest p 1.6e-4 < 0.05/90).
	old := synthRun(t, synth.Options{Stores: fixtureStores, Seed: 1, Repeats: 8})
	slow := synthRun(t, synth.Options{Stores: fixtureStores, Seed: 2, Repeats: 8, Slowdown: 2})
	res := Compare([]*resultsdir.Run{old}, []*resultsdir.Run{slow}, Options{Stores: fixtureStores})
	cells := len(res.Rows) / 3
	if cells == 0 || res.Cells != cells || len(res.OnlyOld)+len(res.OnlyNew) != 0 {
		t.Fatalf("%d rows over %d cells, only old %v, only new %v", len(res.Rows), res.Cells, res.OnlyOld, res.OnlyNew)
	}
	for _, m := range []string{"p50", "cycles/s"} {
		if v := verdicts(res, m); v[Worse] != cells {
			t.Errorf("%s: verdicts %v, want all %d cells worse", m, v, cells)
		}
	}
	for _, r := range res.Rows {
		if r.Samples != ByRepeat || len(r.Old) != 8 || len(r.New) != 8 || r.RunNoise != NoiseInSamples {
			t.Errorf("%s %s: samples %s n=%d+%d run noise %q, want 8+8 repeats", r.Cell, r.Metric, r.Samples, len(r.Old), len(r.New), r.RunNoise)
		}
		if strings.HasSuffix(r.Metric, "p50") && (r.Delta < 0.8 || r.Delta > 1.2 || !r.Regression) {
			t.Errorf("%s %s: delta %+.0f%% regression %v, want about +100%% and failing", r.Cell, r.Metric, 100*r.Delta, r.Regression)
		}
	}
	// Five repeats a side reach 0.05 alone (smallest p 0.008) but not over 90 figures:
	// the intervals are the samples, and the repeats measure the run-to-run noise.
	five := Compare([]*resultsdir.Run{synthRun(t, synth.Options{Stores: fixtureStores, Seed: 1, Repeats: 5})}, []*resultsdir.Run{synthRun(t, synth.Options{Stores: fixtureStores, Seed: 2, Repeats: 5})}, Options{Stores: fixtureStores})
	if r := five.Rows[0]; r.Samples != ByInterval || len(r.Old) != 50 || r.RunNoise != NoiseMeasured || !(r.Allowance > 0) {
		t.Errorf("five repeats a side: samples %s n=%d run noise %q allowance %g, want the 5x10 intervals and a measured allowance", r.Samples, len(r.Old), r.RunNoise, r.Allowance)
	}
}

func TestRepeatsAbsorbDriftThatIntervalsCannotSee(t *testing.T) {
	// Each synthetic repeat's throughput moves by up to ±1% as a whole (Stationary
	// off): a drift between runs that one run's intervals cannot show. With five
	// repeats a side the drift is part of the samples and stays within alpha.
	flagged, rows := 0, 0
	for seed := uint64(1); seed <= uint64(tableSize(30, 6)); seed++ {
		a := synth.Generate(synth.Options{Stores: fixtureStores, Small: true, Seed: 2 * seed, Repeats: 5, Samples: 300})
		b := synth.Generate(synth.Options{Stores: fixtureStores, Small: true, Seed: 2*seed + 1, Repeats: 5, Samples: 300})
		for _, r := range Compare([]*resultsdir.Run{a}, []*resultsdir.Run{b}, Options{Stores: fixtureStores}).Rows {
			if r.Metric != "cycles/s" {
				continue
			}
			rows++
			if r.Verdict == Worse || r.Verdict == Better {
				flagged++
			}
		}
	}
	if share := float64(flagged) / float64(rows); share > 0.05+2.5*math.Sqrt(0.05*0.95/float64(rows)) {
		t.Errorf("repeats flagged %.1f%% of %d cycles/s figures between runs of one drifting source, want about 5%% or less", 100*share, rows)
	}
}

func TestTooFewSamplesAreNeverCalledAChange(t *testing.T) {
	// Runs from before intervals, one a side: even a 2x slowdown cannot be tested.
	old := synthRun(t, synth.Options{Stores: fixtureStores, Seed: 1, NoIntervals: true})
	slow := synthRun(t, synth.Options{Stores: fixtureStores, Seed: 1, NoIntervals: true, Slowdown: 2})
	res := Compare([]*resultsdir.Run{old}, []*resultsdir.Run{slow}, Options{Stores: fixtureStores})
	for _, r := range res.Rows {
		if r.Verdict != Noise || !r.TooFew || r.Samples != ByRun || r.Regression {
			t.Errorf("%s %s: %s too few %v samples %s; want ~ for want of samples", r.Cell, r.Metric, r.Verdict, r.TooFew, r.Samples)
		}
	}
	var out bytes.Buffer
	if err := res.Write(&out, "a", "b"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"~ (n=1+1)²", "² need at least 4 samples a side", "± ∞¹", "geomean", "+100.00%"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestThresholdSeparatesSignificantFromFailing(t *testing.T) {
	old := synth.Generate(synth.Options{Stores: fixtureStores, Small: true, Stationary: true, Seed: 1})
	slow := synth.Generate(synth.Options{Stores: fixtureStores, Small: true, Stationary: true, Seed: 2, Slowdown: 1.1})
	for _, tc := range []struct {
		threshold float64
		failing   bool
	}{{0.05, true}, {0.5, false}} {
		res := Compare([]*resultsdir.Run{old}, []*resultsdir.Run{slow}, Options{Stores: fixtureStores, Threshold: tc.threshold})
		worse := verdicts(res, "p50")[Worse]
		if worse == 0 {
			t.Fatalf("threshold %g: a 10%% slowdown not found at all", tc.threshold)
		}
		if got := len(res.Regressions()) > 0; got != tc.failing {
			t.Errorf("threshold %g: %d regressions of %d worse p50 figures; want failing=%v", tc.threshold, len(res.Regressions()), worse, tc.failing)
		}
	}
}

func TestGeomeanSummarizesEachMetric(t *testing.T) {
	old := synth.Generate(synth.Options{Stores: fixtureStores, Small: true, Stationary: true, Seed: 1})
	slow := synth.Generate(synth.Options{Stores: fixtureStores, Small: true, Stationary: true, Seed: 2, Slowdown: 2})
	res := Compare([]*resultsdir.Run{old}, []*resultsdir.Run{slow}, Options{Stores: fixtureStores})
	if len(res.Geomeans) != 3 {
		t.Fatalf("geomeans %+v, want acquire p50, p99 and cycles/s", res.Geomeans)
	}
	for _, g := range res.Geomeans {
		want := 1.0 // latencies double
		if g.Rate {
			want = -0.5 // throughput halves
		}
		if g.Cells != res.Cells || math.Abs(g.Delta-want) > 0.1 {
			t.Errorf("%s: geomean change %+.2f over %d cells, want about %+.2f over %d", g.Metric, g.Delta, g.Cells, want, res.Cells)
		}
	}
}

func TestOutputReadsLikeBenchstat(t *testing.T) {
	old := synth.Generate(synth.Options{Stores: fixtureStores, Small: true, Stationary: true, Seed: 1})
	slow := synth.Generate(synth.Options{Stores: fixtureStores, Small: true, Stationary: true, Seed: 2, Slowdown: 1.2})
	res := Compare([]*resultsdir.Run{old}, []*resultsdir.Run{slow}, Options{Stores: fixtureStores})
	var out bytes.Buffer
	if err := res.Write(&out, "old-dir", "new-dir"); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"old: old-dir", "intervals of the cell's measured part for 30 cells", "not\nindependent samples", "--repeat N",
		"\nacquire p50\n", "\ncycles/s\n", "old ± 95%", "(p=0.000 holm=0.00", " n=10+10)", "worse, by 5% or more",
		"adjusted over all 90 figures (holm), is below alpha 0.05", "\ngeomean ", " ~ (p=",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if got := strings.Count(text, "\ngeomean "); got != 3 {
		t.Errorf("%d geomean rows, want one per metric (3)", got)
	}
}

func TestIdenticalRunsAreUnchanged(t *testing.T) {
	run := synthRun(t, synth.Options{Stores: fixtureStores, Seed: 3, Repeats: 2})
	res := Compare([]*resultsdir.Run{run}, []*resultsdir.Run{run}, Options{Stores: fixtureStores})
	if !strings.HasPrefix(res.Summary(), "unchanged") {
		t.Errorf("summary %q, want unchanged", res.Summary())
	}
	for _, r := range res.Rows {
		if r.Verdict != Unchanged || r.Delta != 0 || r.Regression {
			t.Errorf("%s %s: %s %+g", r.Cell, r.Metric, r.Verdict, r.Delta)
		}
	}
}

func TestCellsOnOneSideAndEnvironmentChangesAreListed(t *testing.T) {
	a := synthRun(t, synth.Options{Stores: fixtureStores, Seed: 1})
	b := *a
	b.Cells = b.Cells[1:]
	b.Environment.Cores = 4
	res := Compare([]*resultsdir.Run{a}, []*resultsdir.Run{&b}, Options{Stores: fixtureStores})
	if len(res.OnlyOld) != 1 || res.OnlyOld[0] != a.Cells[0].Name || len(res.OnlyNew) != 0 {
		t.Errorf("only old %v, only new %v", res.OnlyOld, res.OnlyNew)
	}
	if len(res.EnvironmentChanges) != 1 || !strings.Contains(res.EnvironmentChanges[0], "cores") {
		t.Errorf("environment changes %v, want the core count", res.EnvironmentChanges)
	}
	if strings.HasPrefix(res.Summary(), "unchanged") {
		t.Errorf("a missing cell still reads unchanged: %s", res.Summary())
	}
}

func TestUpdateCellsCompareTheirOwnMetric(t *testing.T) {
	run := func(seed uint64, slowdown float64) *resultsdir.Run {
		r := synth.Generate(synth.Options{Stores: fixtureStores, Small: true, Stationary: true, Seed: seed, Slowdown: slowdown})
		c := r.Cells[0] // an update cell: its latency is one update's, its rate updates/s
		c.Name += "/workload=update/guard=fenced"
		c.Workload, c.Latency = resultsdir.WorkloadUpdate, map[string]resultsdir.Summary{resultsdir.MetricUpdate: c.Latency[resultsdir.MetricAttempt]}
		c.Intervals = append([]resultsdir.Interval(nil), c.Intervals...)
		for i := range c.Intervals {
			c.Intervals[i].Latency = map[string]resultsdir.Summary{resultsdir.MetricUpdate: c.Intervals[i].Latency[resultsdir.MetricAttempt]}
		}
		r.Cells = []resultsdir.Cell{c}
		return r
	}
	res := Compare([]*resultsdir.Run{run(1, 1)}, []*resultsdir.Run{run(2, 1.5)}, Options{Stores: fixtureStores})
	var metrics []string
	for _, r := range res.Rows {
		metrics = append(metrics, r.Metric)
		if r.Verdict != Worse && r.Metric != "update p99" { // a p99 of 200 values is too noisy to promise
			t.Errorf("%s: %s, want a 1.5x slower update found worse", r.Metric, r.Verdict)
		}
	}
	if strings.Join(metrics, ",") != "update p50,update p99,updates/s" {
		t.Errorf("update cell compared on %v", metrics)
	}
}

func TestRegroupMergesIntervalsFromTheLogs(t *testing.T) {
	dir := t.TempDir()
	run, err := synth.Write(dir, synth.Options{Stores: fixtureStores, Seed: 1, Small: true, Samples: 600})
	if err != nil {
		t.Fatal(err)
	}
	before := run.Cells[0]
	before.Intervals = append([]resultsdir.Interval(nil), before.Intervals...)
	if err := Regroup(dir, run, 4); err != nil {
		t.Fatal(err)
	}
	after := run.Cells[0]
	if len(after.Intervals) != 4 {
		t.Fatalf("%d intervals after regrouping into 4", len(after.Intervals))
	}
	// 10 into 4: sizes 2, 3, 2, 3, adding up to the cell.
	var granted, count int64
	for g, iv := range after.Intervals {
		granted += iv.Granted
		count += iv.Latency[resultsdir.MetricAttempt].Count
		if want := before.Intervals[g*10/4].Elapsed * resultsdir.Duration((g+1)*10/4-g*10/4); iv.Elapsed != want {
			t.Errorf("group %d lasted %v, want %v", g, iv.Elapsed, want)
		}
	}
	if granted != before.Granted || count != before.Latency[resultsdir.MetricAttempt].Count {
		t.Errorf("groups hold %d granted and %d latencies, the cell %d and %d", granted, count, before.Granted, before.Latency[resultsdir.MetricAttempt].Count)
	}
	for k, want := range map[int]string{1: "want at least 2", 5: "recorded only 4 intervals, fewer than 5"} {
		if err := Regroup(dir, run, k); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("regroup into %d: %v, want %q", k, err, want)
		}
	}
	old := synthRun(t, synth.Options{Stores: fixtureStores, Seed: 1, NoIntervals: true})
	if err := Regroup(dir, old, 2); err == nil || !strings.Contains(err.Error(), "recorded no intervals") {
		t.Errorf("regroup a run without intervals: %v", err)
	}
}
