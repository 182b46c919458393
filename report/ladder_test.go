package report

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
)

// ladderRun is a run with one closed-loop cell per strategy, p50 and cycles/s chosen.
func ladderRun(cells map[string][2]float64, order ...string) *resultsdir.Run {
	run := &resultsdir.Run{SchemaVersion: 1, Complete: true}
	for _, s := range order {
		p50 := time.Duration(cells[s][0]) * time.Microsecond
		run.Cells = append(run.Cells, resultsdir.Cell{
			Name: "strategy=" + s + "/clients=4/keys=4", Strategy: s, Clients: 4, Keys: 4,
			Network: resultsdir.Network{Profile: "none"}, Load: resultsdir.LoadMode{Mode: "closed"},
			CyclesPerSecond: cells[s][1],
			Latency: map[string]resultsdir.Summary{resultsdir.MetricAcquire: {
				Count: 10, P50: resultsdir.Duration(p50), P99: resultsdir.Duration(2 * p50), P999: resultsdir.Duration(3 * p50),
			}},
		})
	}
	return run
}

func TestTheClusterIsPricedBesideItsOwnBaseNotOnTheMainLine(t *testing.T) {
	cells := map[string][2]float64{"single": {100, 1000}, "wait": {250, 400}, "cluster": {200, 500}, "cluster-wait": {500, 250}}
	md := Markdown(ladderRun(cells, "cluster-wait", "wait", "cluster", "single"), nil, Options{Stores: fixtureStores})
	for _, want := range []string{
		"`single` → `wait`", "`single` → `cluster` | the same `SET NX` on a Redis Cluster", "2.00× (100µs → 200µs)", "0.50× (1000 → 500)",
		"`cluster` → `cluster-wait` | on a Redis Cluster, the key reached", "2.50× (200µs → 500µs)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("reading lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "`wait` → `cluster`") || strings.Contains(md, "to `cluster-wait` in all") {
		t.Errorf("the cluster is a step of the main line:\n%s", md)
	}
}

func TestAClusterWithoutItsBaseIsNotPriced(t *testing.T) {
	cells := map[string][2]float64{"wait": {250, 400}, "cluster-wait": {500, 250}}
	md := Markdown(ladderRun(cells, "wait", "cluster-wait"), nil, Options{Stores: fixtureStores})
	if strings.Contains(md, "→ `cluster-wait`") || !strings.Contains(md, "no step in safety can be priced") {
		t.Errorf("cluster-wait priced without cluster measured:\n%s", md)
	}
	md = Markdown(ladderRun(cells, "cluster-wait"), nil, Options{Stores: fixtureStores})
	if strings.Contains(md, "### Without contention") {
		t.Errorf("a ladder of one strategy:\n%s", md)
	}
}
