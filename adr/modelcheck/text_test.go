package modelcheck

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/safety/results"
)

// Strategies that agree on a side read as one line naming them; one that differs
// keeps a line of its own, and a break below the boundary still contradicts.
func TestTextGroupsTheStrategiesThatAgree(t *testing.T) {
	side := func(strategy string, below bool, k int) Side {
		size := "a stop of 1.2 x the lease left"
		if below {
			size = "a stop of 0.8 x the lease left"
		}
		return Side{Strategy: strategy, Below: below, Size: size, P: results.ProportionOf(k, 3)}
	}
	text, against := Text([]Side{side("etcd", true, 0), side("etcd", false, 3), side("single", true, 0), side("single", false, 3), side("zookeeper", true, 0), side("zookeeper", false, 2)})
	for _, want := range []string{
		"below (a stop of 0.8 x the lease left): two holders in 0 of 3 judged (0-56%) on each of etcd, single, zookeeper (3)",
		"above (a stop of 1.2 x the lease left): two holders in 3 of 3 judged (44-100%) on each of etcd, single (2)",
		"zookeeper, above (a stop of 1.2 x the lease left): two holders in 2 of 3 judged",
		"the model overcounts there (zookeeper held in 1 of 3 judged above it)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("want %q in %s", want, text)
		}
	}
	if against != "" {
		t.Errorf("no break below the boundary, yet contradicted: %s", against)
	}
	if _, against := Text([]Side{side("etcd", true, 1), side("single", true, 0)}); against != "etcd broke 1 of 3 judged below the boundary" {
		t.Errorf("a break below the boundary: against %q", against)
	}
}

// The figure puts each side beside the model's prediction: none below, every one above.
func TestFigurePredictsNoneBelowEveryOneAbove(t *testing.T) {
	f := Figure("f", "t", "c", []Side{
		{Strategy: "single", Below: true, P: results.ProportionOf(1, 3)},
		{Strategy: "single", Below: false, P: results.ProportionOf(3, 3)},
	})
	if len(f.Points) != 2 || f.Points[0].Label != "single below" || f.Points[0].Predicted != 0 || f.Points[0].K != 1 ||
		f.Points[1].Label != "single above" || f.Points[1].Predicted != 1 || f.Points[1].N != 3 {
		t.Errorf("points %+v", f.Points)
	}
}
