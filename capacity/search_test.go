package capacity

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/stats"
)

func p99(limit time.Duration) Budget {
	return Budget{Metric: "acquire", Percentile: stats.P99, Limit: limit}
}

func TestSearchConvergesOnTheKneeWithinThePrecision(t *testing.T) {
	for _, tc := range []struct {
		name      string
		locker    fakeLocker
		budget    Budget
		precision float64
		start     float64
	}{
		{"knee above start", fakeLocker{base: 500 * time.Microsecond, capacity: 20000}, p99(5 * time.Millisecond), 0.05, 1000},
		{"knee below start", fakeLocker{base: 500 * time.Microsecond, capacity: 300}, p99(5 * time.Millisecond), 0.05, 1000},
		{"fine precision", fakeLocker{base: time.Millisecond, capacity: 7000}, p99(2 * time.Millisecond), 0.01, 1000},
		{"p99.9", fakeLocker{base: 200 * time.Microsecond, capacity: 50000}, Budget{Metric: "acquire", Percentile: stats.P999, Limit: time.Millisecond}, 0.05, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fakeClock{}
			prober := &syntheticProber{locker: tc.locker, clock: clock}
			res, err := Search(context.Background(), prober, Params{Budget: tc.budget, Precision: tc.precision, Start: tc.start})
			if err != nil {
				t.Fatal(err)
			}
			knee := tc.locker.kneeFor(tc.budget.Limit)
			if !(res.Kept <= knee && knee < res.Broke) {
				t.Errorf("kept %g, broke %g: the knee %g is not between them", res.Kept, res.Broke, knee)
			}
			if !res.Converged || res.Precision() > tc.precision {
				t.Errorf("precision %.3f (converged %v), want <= %g", res.Precision(), res.Converged, tc.precision)
			}
			if res.GeneratorBound {
				t.Errorf("a server-bound model reported generator-bound")
			}
			need, _ := tc.budget.MinSamples()
			for _, st := range res.Steps {
				if st.Verdict.Kept && st.Probe.Samples < need {
					t.Errorf("probe at %g kept with %d samples, %d needed", st.Probe.Offered, st.Probe.Samples, need)
				}
			}
			if clock.now <= 0 || len(prober.probes) != len(res.Steps) {
				t.Errorf("probes took %v on the fake clock, %d probes for %d steps", clock.now, len(prober.probes), len(res.Steps))
			}
		})
	}
}

func TestEveryKeptRateWasKeptTwice(t *testing.T) {
	res, err := Search(context.Background(), &syntheticProber{locker: fakeLocker{base: 500 * time.Microsecond, capacity: 20000}, clock: &fakeClock{}},
		Params{Budget: p99(5 * time.Millisecond), Precision: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	kept := map[float64]int{}
	for _, st := range res.Steps {
		if st.Verdict.Kept {
			kept[st.Probe.Offered]++
		}
	}
	if kept[res.Kept] != 2 {
		t.Errorf("the answer %g was kept by %d probes, want 2", res.Kept, kept[res.Kept])
	}
}

func TestALuckyProbeDoesNotRaiseTheAnswer(t *testing.T) {
	locker := fakeLocker{base: 500 * time.Microsecond, capacity: 20000, lucky: true}
	res, err := Search(context.Background(), &syntheticProber{locker: locker, clock: &fakeClock{}}, Params{Budget: p99(5 * time.Millisecond), Precision: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if knee := locker.kneeFor(5 * time.Millisecond); res.Kept > knee {
		t.Errorf("kept %g above the knee %g: a lucky first probe raised the answer", res.Kept, knee)
	}
}

// One spike at a rate well below the knee must not end the growth there: the search
// probes that rate again and goes on (before, one spike at 2000/s cut a real search's
// answer from about 18000/s to 1915/s).
func TestAnUnluckyProbeDoesNotLowerTheAnswer(t *testing.T) {
	locker := fakeLocker{base: 500 * time.Microsecond, capacity: 20000, unluckyAt: 2000}
	res, err := Search(context.Background(), &syntheticProber{locker: locker, clock: &fakeClock{}}, Params{Budget: p99(5 * time.Millisecond), Precision: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	knee := locker.kneeFor(5 * time.Millisecond)
	if res.Kept < knee/1.05 || res.Kept > knee {
		t.Errorf("kept %g, want within 5%% below the knee %g: one spike at 2000/s moved the answer", res.Kept, knee)
	}
	spiked := 0
	for _, st := range res.Steps {
		if st.Probe.Offered == 2000 {
			spiked++
		}
	}
	if spiked != 3 {
		t.Errorf("%d probes at 2000/s, want 3: a split verdict takes a third", spiked)
	}
}

func TestGeneratorBoundSearchSaysSo(t *testing.T) {
	locker := fakeLocker{base: 100 * time.Microsecond, capacity: 1e6, generatorLimit: 3000}
	res, err := Search(context.Background(), &syntheticProber{locker: locker, clock: &fakeClock{}}, Params{Budget: p99(5 * time.Millisecond), Precision: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if !res.GeneratorBound || !strings.Contains(res.BrokeWhy, "generator") {
		t.Errorf("generator-bound %v (%q), want true", res.GeneratorBound, res.BrokeWhy)
	}
	// It delivers 3000/s, which is at least MinDelivered of rates up to 3000/0.95.
	if limit := 3000 / MinDelivered; res.Kept > limit || res.Broke <= limit {
		t.Errorf("kept %g broke %g, want the generator's limit %.0f/s between", res.Kept, res.Broke, limit)
	}
}

func TestProbeLengthFollowsTheSampleCount(t *testing.T) {
	params := Params{Budget: p99(5 * time.Millisecond), Precision: 0.05, MinDuration: time.Millisecond}
	low, high := params.PlanFor(1000), params.PlanFor(10000)
	if r := low.Duration.Seconds() / high.Duration.Seconds(); r < 9.9 || r > 10.1 {
		t.Errorf("a rate 10x higher ran %.2fx shorter, want 10x (%v, %v)", r, low.Duration, high.Duration)
	}
	if got := int64(1000 * low.Duration.Seconds()); got < 1000 {
		t.Errorf("at 1000/s the plan holds %d samples, want >= 1000", got)
	}
}

func TestJudgeRefusesErrorsAndDrops(t *testing.T) {
	ok := Probe{Offered: 1000, Achieved: 1000, Samples: 2000, Sent: 2000, Latency: time.Millisecond}
	for _, tc := range []struct {
		name   string
		change func(*Probe)
		why    string
	}{
		{"errors", func(p *Probe) { p.Errors = 3 }, "errors"},
		{"drops", func(p *Probe) { p.Dropped = 3 }, "dropped"},
		{"nothing delivered", func(p *Probe) { p.Achieved, p.Samples = 0, 0 }, "achieved only"},
		{"too few samples", func(p *Probe) { p.Samples = 10 }, "samples"},
		{"over budget", func(p *Probe) { p.Latency = 9 * time.Millisecond }, "p99"},
	} {
		p := ok
		tc.change(&p)
		if v := Judge(p, p99(5*time.Millisecond), 1000); v.Kept || !strings.Contains(v.Why, tc.why) {
			t.Errorf("%s: %+v, want broken for %q", tc.name, v, tc.why)
		}
	}
	// Poisson arrivals: a count three standard deviations short of a short probe's
	// expectation is chance, not a generator falling behind; five is not.
	short := Probe{Offered: 250, Achieved: 237, Samples: 1100, Sent: 1100, Latency: time.Millisecond, Elapsed: 4400 * time.Millisecond, Poisson: true}
	if v := Judge(short, p99(5*time.Millisecond), 1000); !v.Kept {
		t.Errorf("a Poisson count 5%% short over 1100 samples: %+v, want kept", v)
	}
	short.Achieved = 220
	if v := Judge(short, p99(5*time.Millisecond), 1000); v.Kept {
		t.Errorf("a Poisson count 12%% short: kept, want broken")
	}
	short.Achieved, short.Poisson = 237, false
	if v := Judge(short, p99(5*time.Millisecond), 1000); v.Kept {
		t.Errorf("constant arrivals 5%% short: kept, want broken")
	}
	one := ok
	one.Errors = 2 // 0.1% of 2000: at the limit, kept
	if v := Judge(one, p99(5*time.Millisecond), 1000); !v.Kept {
		t.Errorf("errors at 0.1%%: %+v, want kept", v)
	}
}

func TestParamsRefuseBadInputNamingTheField(t *testing.T) {
	for _, tc := range []struct {
		params Params
		field  string
	}{
		{Params{Budget: p99(5 * time.Millisecond), Precision: 0}, "precision"},
		{Params{Budget: p99(5 * time.Millisecond), Precision: 1}, "precision"},
		{Params{Budget: Budget{Percentile: stats.Max, Limit: time.Millisecond}, Precision: 0.05}, "slo"},
		{Params{Budget: p99(0), Precision: 0.05}, "slo"},
		{Params{Budget: p99(time.Millisecond), Precision: 0.05, Start: 100, Max: 10}, "max rate"},
	} {
		if err := tc.params.Validate(); err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%+v: error %v, want one naming %s", tc.params, err, tc.field)
		}
	}
}
