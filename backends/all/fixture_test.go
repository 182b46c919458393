package all_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/backendtest"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/plots"
)

// listed is what the statistics, figures and reports read of a strategy: the part of
// the shipped metadata backendtest's fixture copies.
type listed struct {
	Kind          backend.Kind
	Position      int
	SafetyRank    backend.SafetyRank
	Presets       []backend.Preset
	Ladder        *backend.Rung
	Synthetic     *backend.Synthetic
	Scaling       *backend.Scaling
	KeyedFailover *backend.KeyedFailover
	AwaitsEvery   bool
}

func listedOf(c *backend.Catalog) map[string]listed {
	out := map[string]listed{}
	for _, st := range c.Strategies() {
		out[st.Name] = listed{st.Kind(), st.Position, st.SafetyRank, st.Presets, st.Ladder, st.Synthetic, st.Scaling,
			st.KeyedFailover, st.AwaitsEveryIndependentNode()}
	}
	return out
}

// TestTheFixtureIsTheShippedMetadata: the pure packages test on backendtest.Catalog,
// so their goldens (the sample report, synthetic folders, looks, orders) hold for the
// real stores only while the fixture says what the stores declare of every strategy
// those lists hold; a strategy in none of them need not be copied.
func TestTheFixtureIsTheShippedMetadata(t *testing.T) {
	real, fixture := listedOf(linked.Catalog()), listedOf(backendtest.Catalog())
	for name, want := range real {
		got, ok := fixture[name]
		if !ok && !want.inAnyList() {
			continue // a strategy in no preset, ladder, synthetic run or axis changes no golden: one file adds it
		}
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the fixture has %s, the store declares %s", name, show(got, ok), show(want, true))
		}
	}
	for name := range fixture {
		if _, ok := real[name]; !ok {
			t.Errorf("%s: in the fixture, declared by no store", name)
		}
	}
	if got, want := backendtest.Catalog().ScalingAxes(), linked.Catalog().ScalingAxes(); !reflect.DeepEqual(got, want) {
		t.Errorf("the fixture's scaling axes %+v, the stores' %+v", got, want)
	}
	if got, want := backendtest.Catalog().Kinds(), linked.Catalog().Kinds(); !reflect.DeepEqual(got, want) {
		t.Errorf("the fixture's kinds %v, the stores' %v", got, want)
	}
}

// inAnyList says whether the strategy takes part in what the goldens are made of.
func (l listed) inAnyList() bool {
	return len(l.Presets) > 0 || l.Ladder != nil || l.Synthetic != nil || l.Scaling != nil || l.KeyedFailover != nil
}

func show(l listed, ok bool) string {
	if !ok {
		return "nothing"
	}
	return fmt.Sprintf("%+v (ladder %+v, synthetic %+v, scaling %+v, keyed %+v)", l, l.Ladder, l.Synthetic, l.Scaling,
		l.KeyedFailover)
}

// TestTheClusterStrategiesHaveTheirOwnLooks: each cluster strategy the store declares
// keeps one slot of looks, beside any company, that no other shipped strategy holds.
func TestTheClusterStrategiesHaveTheirOwnLooks(t *testing.T) {
	stores := linked.Catalog()
	var every []string
	for _, st := range stores.Strategies() {
		every = append(every, st.Name)
	}
	all := plots.NewStyles(stores, every)
	seen := map[plots.Look]string{}
	for _, name := range every {
		seen[all.Look(name, false)] = name
	}
	for _, name := range []string{"cluster", "cluster-wait", "cluster-fenced"} {
		alone := plots.NewStyles(stores, []string{"custom-1", name})
		if alone.Look(name, false) != all.Look(name, false) {
			t.Errorf("%s looks %+v beside custom-1, %+v beside every strategy: it has no fixed slot",
				name, alone.Look(name, false), all.Look(name, false))
		}
		if other := seen[all.Look(name, false)]; other != name {
			t.Errorf("%s is drawn like %s", name, other)
		}
	}
}
