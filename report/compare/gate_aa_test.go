package compare

import (
	"bytes"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/lockbench/lockbench/report/synth"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// gatePairs is how many synthetic A/A pairs each gate test compares: 200 under -long.
func gatePairs() int { return tableSize(200, 20) }

// slowedCell is the one cell the power test slows: a closed-loop cell whose median
// is tested like any other.
var slowedCell = synth.Name("single", 8, 8, resultsdir.Network{Profile: "none"}, resultsdir.LoadMode{Mode: "closed"})

// comparePairs compares pairs of synthetic runs, old from a and new from b, each pair
// on its own seeds, under each of opts (results[k] for opts[k]); pairs run in parallel.
func comparePairs(pairs int, a, b synth.Options, opts ...Options) [][]Result {
	results := make([][]Result, len(opts))
	for k := range results {
		results[k] = make([]Result, pairs)
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := 0; i < pairs; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			x, y := a, b
			x.Seed, y.Seed = uint64(2*i+1000), uint64(2*i+1001)
			old, new := []*resultsdir.Run{generated(x)}, []*resultsdir.Run{generated(y)}
			for k, o := range opts {
				results[k][i] = Compare(old, new, o)
			}
		}(i)
	}
	wg.Wait()
	return results
}

// gateFailures counts the comparisons whose gate fails (exit 1).
func gateFailures(results []Result) int {
	n := 0
	for _, r := range results {
		if len(r.Regressions()) > 0 {
			n++
		}
	}
	return n
}

// uncorrectedFailures counts the comparisons an uncorrected gate fails: any one figure
// worse at alpha by the threshold, within-run intervals taken at their word.
func uncorrectedFailures(results []Result, opts Options) int {
	n := 0
	for _, res := range results {
		for _, r := range res.Rows {
			if r.tested && r.P < opts.Alpha && r.factor > 1 && r.factor-1 >= opts.Threshold {
				n++
				break
			}
		}
	}
	return n
}

func checkFigures(t *testing.T, results []Result, want int) {
	t.Helper()
	for _, r := range results {
		if len(r.Rows) != want {
			t.Fatalf("%d figures compared, want %d", len(r.Rows), want)
		}
	}
}

// oneRunASide is a user's default: one run a side cut into 10 intervals, every figure
// of a run moved together by a run effect of 5% (standard deviation on the log), as
// one run's machine state moves them.
var oneRunASide = synth.Options{Stores: fixtureStores, Small: true, Stationary: true, RunSpread: 0.05, Samples: 1000}

// tenRepeats is the same source run with --repeat 10: each repeat draws its own run
// effect (2%), and the figures of whole repeats are the samples.
var tenRepeats = synth.Options{Stores: fixtureStores, Small: true, Stationary: true, RunSpread: 0.02, Repeats: 10, Samples: 500, NoIntervals: true}

func TestGateOnOneRunASideRarelyFailsAnAAPair(t *testing.T) {
	opts, pairs := fixtureOptions(), gatePairs()
	results := comparePairs(pairs, oneRunASide, oneRunASide, opts)[0]
	checkFigures(t, results, 90)
	failed, before := gateFailures(results), uncorrectedFailures(results, opts)
	t.Logf("one run a side: %d of %d A/A gates fail; %d would fail testing each figure at alpha on intervals alone",
		failed, pairs, before)
	if failed > pairs/20 {
		t.Errorf("%d of %d A/A gate decisions failed, want at most 5%%", failed, pairs)
	}
	// The data must carry what the old gate could not see: a run effect that intervals
	// call significant. Else this test would pass for want of noise.
	if before < pairs/2 {
		t.Errorf("only %d of %d A/A pairs fail the uncorrected interval gate: "+
			"the synthetic run effect is too weak to test the gate", before, pairs)
	}
	for _, r := range results[0].Rows {
		wantNoise, wantAllowance := NoiseUnmeasured, DefaultRunAllowance
		if strings.HasSuffix(r.Metric, "p99") {
			wantNoise, wantAllowance = NoiseTailUnmeasured, math.Inf(1)
		}
		if r.RunNoise != wantNoise || r.Allowance != wantAllowance {
			t.Fatalf("%s %s: run noise %q allowance %g, want %q and %g", r.Cell, r.Metric, r.RunNoise, r.Allowance, wantNoise, wantAllowance)
		}
	}
}

// bothCorrections are the default options under Holm and under BH.
func bothCorrections() []Options {
	holm, bh := fixtureOptions(), fixtureOptions()
	bh.Correction = stats.BH
	return []Options{holm, bh}
}

func TestGateOnRepeatsRarelyFailsAnAAPair(t *testing.T) {
	each, pairs := bothCorrections(), gatePairs()
	for k, results := range comparePairs(pairs, tenRepeats, tenRepeats, each...) {
		opts, correction := each[k], each[k].Correction
		checkFigures(t, results, 90)
		failed := gateFailures(results)
		t.Logf("%s, 10 repeats a side: %d of %d A/A gates fail; %d uncorrected",
			correction, failed, pairs, uncorrectedFailures(results, opts))
		if failed > pairs/20 {
			t.Errorf("%s: %d of %d A/A gate decisions failed, want at most 5%%", correction, failed, pairs)
		}
		for _, r := range results[0].Rows { // tails included: repeats gate every figure
			if r.Samples != ByRepeat || r.RunNoise != NoiseInSamples {
				t.Fatalf("%s: %s samples %s, run noise %q; want the repeats", correction, r.Metric, r.Samples, r.RunNoise)
			}
		}
	}
}

func TestGateFindsATenPercentSlowdownOfOneCell(t *testing.T) {
	slow := tenRepeats
	slow.Slowdown, slow.SlowCell = 1.1, slowedCell
	each, pairs := bothCorrections(), gatePairs()
	for k, results := range comparePairs(pairs, tenRepeats, slow, each...) {
		correction := each[k].Correction
		found, other := 0, 0
		for _, res := range results {
			hit := false
			for _, r := range res.Regressions() {
				if r.Cell == slowedCell {
					hit = true
				} else {
					other++
				}
			}
			if hit {
				found++
			}
		}
		t.Logf("%s: the slowed cell fails the gate in %d of %d pairs; %d regressions named elsewhere",
			correction, found, pairs, other)
		if found < pairs*9/10 {
			t.Errorf("%s: a 10%% slowdown of one cell failed the gate in %d of %d pairs, want at least 90%%",
				correction, found, pairs)
		}
	}
}

func TestGateOnOneRunASideFailsBeyondTheAllowanceOnly(t *testing.T) {
	for _, tc := range []struct {
		slowdown float64
		fails    bool
	}{{2, true}, {1.2, false}} {
		slow := oneRunASide
		slow.Slowdown, slow.SlowCell = tc.slowdown, slowedCell
		res := comparePairs(1, synth.Options{Stores: fixtureStores, Small: true, Stationary: true, Samples: 1000}, slow, fixtureOptions())[0][0]
		failed := false
		for _, r := range res.Regressions() {
			failed = failed || r.Cell == slowedCell
		}
		if failed != tc.fails {
			t.Errorf("one run a side, one cell %gx slower: gate fails on it %v, want %v", tc.slowdown, failed, tc.fails)
		}
		var out bytes.Buffer
		if err := res.Write(&out, "a", "b"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "within-run intervals only: run-to-run noise not measured") {
			t.Errorf("output does not say what one run a side cannot see:\n%s", out.String())
		}
		if !tc.fails && !strings.Contains(out.String(), "worse, within the run-to-run allowance of 50%") {
			t.Errorf("a %gx slowdown found in the intervals but passed is not shown as such:\n%s", tc.slowdown, out.String())
		}
	}
}

// One run's p99 moved 3.4x between identical runs on a quiet machine (docs/compare.md):
// with one run a side a tail is shown, even when worse beyond any threshold, but never
// fails the gate; with repeats it does.
func TestTailsGateOnlyWithRepeats(t *testing.T) {
	slowOnce := oneRunASide
	slowOnce.Slowdown, slowOnce.SlowCell = 4, slowedCell
	res := comparePairs(1, synth.Options{Stores: fixtureStores, Small: true, Stationary: true, Samples: 1000}, slowOnce, fixtureOptions())[0][0]
	tail := row(t, res, slowedCell, "acquire p99")
	if tail.Verdict != Worse || tail.Regression || tail.RunNoise != NoiseTailUnmeasured {
		t.Errorf("one run a side, 4x slower: p99 verdict %q regression %v run noise %q; want worse, not failing, %q", tail.Verdict, tail.Regression, tail.RunNoise, NoiseTailUnmeasured)
	}
	if median := row(t, res, slowedCell, "acquire p50"); !median.Regression {
		t.Errorf("one run a side, 4x slower: p50 does not fail the gate (%q, %+.0f%%)", median.Verdict, 100*median.Delta)
	}
	var out bytes.Buffer
	if err := res.Write(&out, "a", "b"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"worse, not gated: a tail from one run a side", "shown, not gated"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	slowRepeats := tenRepeats
	slowRepeats.Slowdown, slowRepeats.SlowCell = 4, slowedCell
	res = comparePairs(1, tenRepeats, slowRepeats, fixtureOptions())[0][0]
	if tail := row(t, res, slowedCell, "acquire p99"); !tail.Regression {
		t.Errorf("ten repeats a side, 4x slower: p99 does not fail the gate (%q, %q)", tail.Verdict, tail.RunNoise)
	}
}

// row finds one metric of one cell.
func row(t *testing.T, res Result, cell, metric string) Row {
	t.Helper()
	for _, r := range res.Rows {
		if r.Cell == cell && r.Metric == metric {
			return r
		}
	}
	t.Fatalf("no %s row for %s", metric, cell)
	return Row{}
}
