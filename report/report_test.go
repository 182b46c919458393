package report

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
)

// twoStrategyRun is a run with one closed-loop cell per strategy and chosen numbers.
func twoStrategyRun(p50 map[string]time.Duration, cps map[string]float64) *resultsdir.Run {
	run := &resultsdir.Run{SchemaVersion: 1, Complete: true}
	for _, s := range []string{"single", "wait"} {
		run.Cells = append(run.Cells, resultsdir.Cell{
			Name: "strategy=" + s + "/clients=4/keys=4", Strategy: s, Clients: 4, Keys: 4,
			Network: resultsdir.Network{Profile: "none"}, Load: resultsdir.LoadMode{Mode: "closed"},
			CyclesPerSecond: cps[s],
			Latency: map[string]resultsdir.Summary{resultsdir.MetricAcquire: {
				Count: 10, P50: resultsdir.Duration(p50[s]), P99: resultsdir.Duration(2 * p50[s]), P999: resultsdir.Duration(3 * p50[s]),
			}},
		})
	}
	return run
}

func TestReadingComputesRatiosFromTheCells(t *testing.T) {
	run := twoStrategyRun(map[string]time.Duration{"single": 100 * time.Microsecond, "wait": 250 * time.Microsecond},
		map[string]float64{"single": 1000, "wait": 400})
	md := Markdown(run, nil, Options{Stores: fixtureStores})
	for _, want := range []string{
		"`single` → `wait`", "2.50× (100µs → 250µs)", "0.40× (1000 → 400)",
		"strategy=*/clients=4/keys=4",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("reading lacks %q:\n%s", want, md)
		}
	}
}

func TestStrategyThatNeverAcquiredIsNamedAndLeftOutOfRatios(t *testing.T) {
	run := twoStrategyRun(map[string]time.Duration{"single": 100 * time.Microsecond, "wait": 250 * time.Microsecond},
		map[string]float64{"single": 1000, "wait": 400})
	never := run.Cells[0]
	never.Name, never.Strategy, never.CyclesPerSecond = "strategy=redlock/clients=4/keys=4", "redlock", 0
	never.Attempts, never.Refused, never.Granted = 1311, 1247, 0
	never.Latency = map[string]resultsdir.Summary{resultsdir.MetricAttempt: {Count: 1311, P50: resultsdir.Duration(time.Millisecond)}}
	run.Cells = append(run.Cells, never)
	md := Markdown(run, nil, Options{Stores: fixtureStores})
	if !strings.Contains(md, "### Cells where no lock was ever acquired") || !strings.Contains(md, "| `redlock` | 4 | 4 | no injected latency, closed loop | 1311 | 1247 | 0 |") {
		t.Errorf("the never-acquired cell is not listed:\n%s", md)
	}
	if strings.Contains(md, "`wait` → `redlock`") || !strings.Contains(md, "`single` → `wait`") {
		t.Errorf("ratios include a strategy that acquired nothing, or lost the others:\n%s", md)
	}
}
