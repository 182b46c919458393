package stats

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
)

func cell(name, strategy string, clients, keys int, cps float64, p50 time.Duration) resultsdir.Cell {
	return resultsdir.Cell{
		Name: name, Strategy: strategy, Clients: clients, Keys: keys, CyclesPerSecond: cps,
		Latency: map[string]resultsdir.Summary{resultsdir.MetricAcquire: {Count: 1, P50: resultsdir.Duration(p50)}},
	}
}

func TestGroupsFoldRepeatsAcrossRunsAndSortBySafety(t *testing.T) {
	a := &resultsdir.Run{Cells: []resultsdir.Cell{
		cell("r8", "redlock", 8, 8, 300, 3*time.Millisecond),
		cell("s8", "single", 8, 8, 100, 1*time.Millisecond),
		cell("s1", "single", 1, 1, 10, 1*time.Millisecond),
		cell("s8", "single", 8, 8, 200, 2*time.Millisecond),
	}}
	b := &resultsdir.Run{Cells: []resultsdir.Cell{cell("s8", "single", 8, 8, 900, 9*time.Millisecond)}}
	groups := Groups(fixtureStores, a, b)
	var order []string
	for _, g := range groups {
		order = append(order, g.Name)
	}
	if strings.Join(order, ",") != "s1,s8,r8" {
		t.Errorf("order %v, want fewer clients first, then single before redlock", order)
	}
	s8 := groups[1]
	if len(s8.Repeats) != 3 || s8.Throughput() != 200 || s8.Latency(resultsdir.MetricAcquire, P50) != 2*time.Millisecond {
		t.Errorf("s8: %d repeats, median %g cycles/s and %s, want 3, 200 and 2ms", len(s8.Repeats), s8.Throughput(), s8.Latency(resultsdir.MetricAcquire, P50))
	}
	if got := strings.Join(Strategies(fixtureStores, groups), ","); got != "single,redlock" {
		t.Errorf("strategies %s", got)
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := Median(tc.in); got != tc.want {
			t.Errorf("Median(%v) = %g, want %g", tc.in, got, tc.want)
		}
	}
}

func TestSafetyOrder(t *testing.T) {
	names := []string{"etcd-3", "redlock-failfast", "cluster-wait", "wait", "zookeeper", "single", "clusterish", "redlock", "sentinel", "cluster", "etcd"}
	SortStrategies(fixtureStores, names)
	if got := strings.Join(names, ","); got != "single,wait,sentinel,cluster,cluster-wait,redlock,redlock-failfast,etcd,etcd-3,zookeeper,clusterish" {
		t.Errorf("order %s", got)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0", 850: "850ns", 87 * time.Microsecond: "87.0µs", 1420 * time.Microsecond: "1.42ms",
		250 * time.Millisecond: "250ms", 2300 * time.Millisecond: "2.30s",
	} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%s) = %s, want %s", d, got, want)
		}
	}
}

func TestContended(t *testing.T) {
	for _, tc := range []struct {
		clients, keys int
		want          bool
	}{{1, 1, false}, {8, 1, true}, {8, 8, false}, {64, 8, true}} {
		if got := (Condition{Clients: tc.clients, Keys: tc.keys}).Contended(); got != tc.want {
			t.Errorf("%d clients on %d keys: contended %v", tc.clients, tc.keys, got)
		}
	}
}
