package report

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/report/digest"
	"github.com/lockbench/lockbench/resultsdir"
)

// openRun is one strategy's open-loop cells: offered rate -> (p99, achieved rate).
func openRun(strategy string, points map[float64][2]float64) *resultsdir.Run {
	run := &resultsdir.Run{SchemaVersion: 1}
	for rate, pt := range points {
		run.Cells = append(run.Cells, resultsdir.Cell{
			Name: fmt.Sprintf("strategy=%s/load=open-%g", strategy, rate), Strategy: strategy, Clients: 16, Keys: 16,
			Network: resultsdir.Network{Profile: "none"},
			Load:    resultsdir.LoadMode{Mode: "open", Arrival: "poisson", TargetRate: rate, AchievedRate: pt[1]},
			Latency: map[string]resultsdir.Summary{resultsdir.MetricAcquire: {Count: 100, P99: resultsdir.Duration(time.Duration(pt[0] * float64(time.Millisecond)))}},
		})
	}
	return run
}

func TestCapacityIsTheHighestRateBelowTheFirstBreak(t *testing.T) {
	slo := SLO{Metric: resultsdir.MetricAcquire, Percentile: digest.P99, Budget: 5 * time.Millisecond}
	for _, tc := range []struct {
		name          string
		points        map[float64][2]float64
		kept, broke   float64
		sentencePiece string
	}{
		{"knee", map[float64][2]float64{1000: {1, 1000}, 2000: {2, 2000}, 4000: {9, 4000}, 8000: {40, 5000}}, 2000, 4000, "2000/s"},
		// A lucky higher rate after a break does not count: capacity is not a lottery.
		{"noisy", map[float64][2]float64{1000: {1, 1000}, 2000: {6, 2000}, 4000: {4, 4000}}, 1000, 2000, "1000/s"},
		{"fell behind", map[float64][2]float64{1000: {1, 1000}, 2000: {2, 1500}}, 1000, 2000, "achieved only 1500/s"},
		{"never broke", map[float64][2]float64{1000: {1, 1000}, 2000: {2, 2000}}, 2000, 0, "at least 2000/s"},
		{"always broke", map[float64][2]float64{1000: {7, 1000}}, 0, 1000, "no offered rate tried kept"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			caps := Capacities(openRun("single", tc.points), slo)
			if len(caps) != 1 {
				t.Fatalf("got %d answers, want 1", len(caps))
			}
			c := caps[0]
			if c.Kept != tc.kept || c.Broke != tc.broke {
				t.Errorf("kept %g broke %g, want %g and %g", c.Kept, c.Broke, tc.kept, tc.broke)
			}
			if s := c.Sentence(slo); !strings.Contains(s, tc.sentencePiece) {
				t.Errorf("sentence %q lacks %q", s, tc.sentencePiece)
			}
		})
	}
}

func TestCapacityWithoutOpenLoopSaysSo(t *testing.T) {
	run := twoStrategyRun(map[string]time.Duration{"single": time.Millisecond, "wait": 2 * time.Millisecond}, map[string]float64{"single": 1, "wait": 1})
	slo := SLO{Metric: resultsdir.MetricAcquire, Percentile: digest.P99, Budget: time.Millisecond}
	if md := Markdown(run, nil, Options{SLO: &slo}); !strings.Contains(md, "no open-loop cells") {
		t.Errorf("capacity section does not say the run has no open-loop cells:\n%s", md)
	}
}

func TestParseSLO(t *testing.T) {
	got, err := ParseSLO("p99=5ms")
	if err != nil || got != (SLO{Metric: "acquire", Percentile: digest.P99, Budget: 5 * time.Millisecond}) {
		t.Errorf("p99=5ms: %+v %v", got, err)
	}
	got, err = ParseSLO("attempt:p99.9=250us")
	if err != nil || got != (SLO{Metric: "attempt", Percentile: digest.P999, Budget: 250 * time.Microsecond}) {
		t.Errorf("attempt:p99.9=250us: %+v %v", got, err)
	}
	for _, bad := range []string{"p99", "p98=5ms", "p99=fast", "p99=-1ms", "release:p99=1ms"} {
		if _, err := ParseSLO(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("%q: error %v, want one quoting the flag", bad, err)
		}
	}
}
