package synth_test

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/report"
	"github.com/lockbench/lockbench/report/synth"
)

func TestTheFullMatrixHoldsTheClusterWithoutProxiedCells(t *testing.T) {
	run := synth.Generate(synth.Options{Stores: fixtureStores, Seed: 1})
	cells := map[string]int{}
	for _, c := range run.Cells {
		if !strings.HasPrefix(c.Strategy, "cluster") {
			continue
		}
		cells[c.Strategy]++
		if c.Network.Profile != "none" {
			t.Errorf("%s: a cluster cell behind a latency proxy, which the cluster client cannot use", c.Name)
		}
	}
	if cells["cluster"] == 0 || cells["cluster-wait"] == 0 {
		t.Errorf("cluster cells by strategy: %v, want both strategies", cells)
	}
	if got := run.Environment.Topologies["cluster-wait"]; !strings.HasPrefix(got, "cluster") {
		t.Errorf("cluster-wait's topology is %q", got)
	}
	md := report.Markdown(run, nil, report.Options{Stores: fixtureStores})
	for _, want := range []string{"`single` → `cluster`", "`cluster` → `cluster-wait`"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report of the full matrix lacks the step %s", want)
		}
	}
}

func TestTheSmallMatrixKeepsItsGoldenStrategies(t *testing.T) {
	for _, c := range synth.Generate(synth.Options{Stores: fixtureStores, Seed: 1, Small: true}).Cells {
		if strings.HasPrefix(c.Strategy, "cluster") {
			t.Fatalf("the small matrix (golden files) holds %s", c.Name)
		}
	}
}
