package report

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
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
	slo := SLO{Metric: resultsdir.MetricAcquire, Percentile: stats.P99, Budget: 5 * time.Millisecond}
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
			caps := Capacities(fixtureStores, openRun("single", tc.points), slo)
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
	slo := SLO{Metric: resultsdir.MetricAcquire, Percentile: stats.P99, Budget: time.Millisecond}
	if md := Markdown(run, nil, Options{Stores: fixtureStores, SLO: &slo}); !strings.Contains(md, "no open-loop cells") {
		t.Errorf("capacity section does not say the run has no open-loop cells:\n%s", md)
	}
}

func TestParseSLO(t *testing.T) {
	got, err := ParseSLO("p99=5ms")
	if err != nil || got != (SLO{Metric: "acquire", Percentile: stats.P99, Budget: 5 * time.Millisecond}) {
		t.Errorf("p99=5ms: %+v %v", got, err)
	}
	got, err = ParseSLO("attempt:p99.9=250us")
	if err != nil || got != (SLO{Metric: "attempt", Percentile: stats.P999, Budget: 250 * time.Microsecond}) {
		t.Errorf("attempt:p99.9=250us: %+v %v", got, err)
	}
	for _, bad := range []string{"p99", "p98=5ms", "p99=fast", "p99=-1ms", "release:p99=1ms"} {
		if _, err := ParseSLO(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("%q: error %v, want one quoting the flag", bad, err)
		}
	}
}

// A rate with nothing delivered, errors or drops above 0.1%, or one repeat that broke
// the budget is never kept.
func TestCapacityNeverKeepsARateWithErrorsDropsOrNothingDelivered(t *testing.T) {
	slo := SLO{Metric: resultsdir.MetricAcquire, Percentile: stats.P99, Budget: 5 * time.Millisecond}
	for _, tc := range []struct {
		name   string
		change func(c *resultsdir.Cell)
		why    string
	}{
		{"nothing delivered", func(c *resultsdir.Cell) { c.Load.AchievedRate = 0 }, "achieved only 0"},
		{"errors", func(c *resultsdir.Cell) { c.Attempts, c.Errors = 1000, map[string]int64{"timeout": 5} }, "errors on 0.50%"},
		{"drops", func(c *resultsdir.Cell) { c.Attempts, c.Load.Dropped = 1000, 20 }, "drops on 1.96%"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := openRun("single", map[float64][2]float64{1000: {1, 1000}, 2000: {2, 2000}})
			for i := range run.Cells {
				if run.Cells[i].Load.TargetRate == 2000 {
					tc.change(&run.Cells[i])
				}
			}
			c := Capacities(fixtureStores, run, slo)[0]
			if c.Kept != 1000 || c.Broke != 2000 || !strings.Contains(c.BrokeWhy, tc.why) {
				t.Errorf("kept %g broke %g (%q), want 1000, 2000 and %q", c.Kept, c.Broke, c.BrokeWhy, tc.why)
			}
		})
	}
	t.Run("one repeat broke", func(t *testing.T) {
		run := openRun("single", map[float64][2]float64{1000: {1, 1000}, 2000: {2, 2000}})
		for _, c := range run.Cells {
			if c.Load.TargetRate == 2000 {
				c.Repeat = 2
				c.Latency = map[string]resultsdir.Summary{resultsdir.MetricAcquire: {Count: 100, P99: resultsdir.Duration(9 * time.Millisecond)}}
				run.Cells = append(run.Cells, c)
				break
			}
		}
		if c := Capacities(fixtureStores, run, slo)[0]; c.Kept != 1000 {
			t.Errorf("kept %g: a rate whose repeat broke the budget counted", c.Kept)
		}
	})
}

func TestLadderMarksAStepFromACellWithErrors(t *testing.T) {
	run := twoStrategyRun(map[string]time.Duration{"single": 100 * time.Microsecond, "wait": 250 * time.Microsecond},
		map[string]float64{"single": 1000, "wait": 400})
	run.Cells[1].Attempts, run.Cells[1].Errors = 100, map[string]int64{"not-replicated": 3}
	if md := Markdown(run, nil, Options{Stores: fixtureStores}); !strings.Contains(md, "`wait` ⚠ errors 3.00%") {
		t.Errorf("the ladder does not mark wait's errors:\n%s", md)
	}
}

func TestSearchedCapacityTableSaysGeneratorBoundAndWhatSaturated(t *testing.T) {
	rec := capacity.Record{SLO: "p99=5ms", Metric: "acquire", Percentile: "p99", Budget: resultsdir.Duration(5 * time.Millisecond), Precision: 0.05, MinSamples: 1000,
		Searches: []capacity.SearchRecord{
			{Strategy: "single", Clients: 64, Keys: 64, Arrival: "poisson", Servers: 1, Kept: 3000, Broke: 3100, Precision: 0.033, Converged: true,
				GeneratorBound: true, ClientCores: 1, TopCPU: map[string]float64{"lockbench": 0.97, "master-0": 0.3},
				Saturated: capacity.Saturation(map[string]float64{"lockbench": 0.97, "master-0": 0.3}, 1, 2),
				Probes:    []capacity.ProbeRecord{{Offered: 3000, Latency: resultsdir.Duration(time.Millisecond), Kept: true}, {Offered: 3100, Latency: resultsdir.Duration(time.Millisecond)}}},
			{Strategy: "redlock", Clients: 64, Keys: 64, Arrival: "poisson", Servers: 5, Kept: 1900, Broke: 1990, Precision: 0.047, Converged: true,
				ClientCores: 1, TopCPU: map[string]float64{"lockbench": 0.5, "master-0": 0.95}, Saturated: capacity.Saturation(map[string]float64{"lockbench": 0.5, "master-0": 0.95}, 1, 2),
				Probes: []capacity.ProbeRecord{{Offered: 1900, Latency: resultsdir.Duration(4 * time.Millisecond), Kept: true}, {Offered: 1990, Latency: resultsdir.Duration(7 * time.Millisecond)}}},
		}}
	// The knee figure is drawn before the report is written (plots.KneeFigures): the
	// section embeds it by the name it was given.
	figs := []Figure{{Name: "capacity-knee", Files: []string{"figures/capacity-knee.png", "figures/capacity-knee.svg"}}}
	var b strings.Builder
	writeSearchedCapacity(&b, rec, figs)
	md := b.String()
	for _, want := range []string{"generator-bound at 3100/s", "lockbench (97% CPU)", "1900/s (+4.7% broke it)", "master-0 (95% CPU)", "| 5 |", "capacity-knee.png"} {
		if !strings.Contains(md, want) {
			t.Errorf("the capacity table lacks %q:\n%s", want, md)
		}
	}
}

func TestUSLSectionRecoversTheFitAndRefusesAPoorOne(t *testing.T) {
	law := capacity.USL{Lambda: 10000, Sigma: 0.04, Kappa: 0.0005}
	run := &resultsdir.Run{SchemaVersion: 1, Complete: true}
	for _, n := range []int{1, 2, 4, 8, 16, 32, 64, 128} {
		for strategy, x := range map[string]float64{"single": law.At(float64(n)), "redlock": []float64{900, 5000, 700, 6000, 800, 5500, 600, 7000}[len(run.Cells)/2]} {
			run.Cells = append(run.Cells, resultsdir.Cell{
				Name: fmt.Sprintf("strategy=%s/clients=%d", strategy, n), Strategy: strategy, Clients: n, Keys: n,
				Network: resultsdir.Network{Profile: "none"}, Load: resultsdir.LoadMode{Mode: "closed"}, CyclesPerSecond: x,
				Latency: map[string]resultsdir.Summary{resultsdir.MetricAcquire: {Count: 10, P99: resultsdir.Duration(time.Millisecond)}},
			})
		}
	}
	fits := capacity.FitStrategies(stats.Groups(fixtureStores, run))
	var b strings.Builder
	writeUSL(&b, fits, nil)
	md := b.String()
	wantN, wantX, _ := law.Peak()
	for _, want := range []string{"| `single` | 0s | 8 | 10000 | 0.0400 | 0.000500 | peak at " + fmt.Sprintf("%.0f clients, %s/s", wantN, stats.FormatRate(wantX)), "`redlock`", "poor fit"} {
		if !strings.Contains(md, want) {
			t.Errorf("USL section lacks %q:\n%s", want, md)
		}
	}
}
