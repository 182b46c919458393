package plots_test

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/plots/plotstest"
)

func TestAShippedStrategyLooksTheSameWhateverElseTheRunHolds(t *testing.T) {
	all := plots.NewStyles(plotstest.Crowd())
	for _, company := range [][]string{{"zookeeper-3"}, {"custom-1", "zookeeper-3", "single"}, {"etcd", "zookeeper-3", "wait"}} {
		st := plots.NewStyles(company)
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
