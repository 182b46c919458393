package plots_test

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/plots/plotstest"
)

func TestAShippedStrategyLooksTheSameWhateverElseTheRunHolds(t *testing.T) {
	all := plots.NewStyles(fixtureStores, plotstest.Crowd(fixtureStores))
	for _, company := range [][]string{{"zookeeper-3"}, {"custom-1", "zookeeper-3", "single"}, {"etcd", "zookeeper-3", "wait"}} {
		st := plots.NewStyles(fixtureStores, company)
		for _, name := range company {
			if strings.HasPrefix(name, "custom") {
				continue
			}
			if st.Look(name, false) != all.Look(name, false) {
				t.Errorf("%s looks %+v beside %v, %+v beside every strategy", name, st.Look(name, false), company, all.Look(name, false))
			}
		}
	}
}

func TestTheClusterStrategiesHaveTheirOwnLooks(t *testing.T) {
	all := plots.NewStyles(fixtureStores, plotstest.Crowd(fixtureStores))
	seen := map[plots.Look]string{}
	for _, name := range plotstest.Crowd(fixtureStores) {
		seen[all.Look(name, false)] = name
	}
	for _, name := range []string{"cluster", "cluster-wait", "cluster-fenced"} {
		alone := plots.NewStyles(fixtureStores, []string{"custom-1", name})
		if alone.Look(name, false) != all.Look(name, false) {
			t.Errorf("%s looks %+v beside custom-1, %+v beside every strategy: it has no fixed slot", name, alone.Look(name, false), all.Look(name, false))
		}
		if other := seen[all.Look(name, false)]; other != name {
			t.Errorf("%s is drawn like %s", name, other)
		}
	}
}
