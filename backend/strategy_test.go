package backend

import (
	"reflect"
	"strings"
	"testing"
)

func strategyNames(sts []Strategy) []string {
	var out []string
	for _, st := range sts {
		out = append(out, st.Name)
	}
	return out
}

func TestStrategiesListByPositionAndKnowTheirKind(t *testing.T) {
	s := NewCatalog()
	for _, d := range []Descriptor{
		{Store: "kv", Shapes: []Shape{{Kind: "kv-one", Strategies: []Strategy{
			{Name: "kv-late", Position: 9, Presets: []Preset{RunMatrix}},
			{Name: "kv-first", Position: 0, Presets: []Preset{RunMatrix, CapacitySearch}},
		}}}},
		{Store: "raft", Shapes: []Shape{{Kind: "raft", Strategies: []Strategy{{Name: "raft-3", Position: 4, Presets: []Preset{RunMatrix}}}}}},
	} {
		if err := s.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	if got := strategyNames(s.Strategies()); !reflect.DeepEqual(got, []string{"kv-first", "raft-3", "kv-late"}) {
		t.Errorf("strategies by position: %v", got)
	}
	st, ok := s.StrategyOf("raft-3")
	if !ok || st.Kind() != "raft" || !st.In(RunMatrix) || st.In(CapacitySearch) {
		t.Errorf("raft-3 = %+v (kind %s), %v", st, st.Kind(), ok)
	}
	if _, ok := s.StrategyOf("nosuch"); ok {
		t.Error("an undeclared strategy was found")
	}
}

func TestARepeatedStrategyOrPositionIsRefusedWhole(t *testing.T) {
	s := NewCatalog()
	if err := s.Add(Descriptor{Store: "redis", Shapes: []Shape{{Kind: "single", Strategies: []Strategy{{Name: "single", Position: 0}}}}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		strategies []Strategy
		want       string
	}{
		{[]Strategy{{Name: "single", Position: 5}}, "strategy registered twice: single"},
		{[]Strategy{{Name: "fresh", Position: 0}}, "strategies single and fresh both at position 0"},
		{[]Strategy{{Name: "a", Position: 7}, {Name: "b", Position: 7}}, "strategies a and b both at position 7"},
		{[]Strategy{{Name: "a", Position: 7}, {Name: "a", Position: 8}}, "strategy registered twice: a"},
		{[]Strategy{{Position: 8}}, "a strategy of kind other has no name"},
	} {
		err := s.Add(Descriptor{Store: "other", Shapes: []Shape{{Kind: "other", Strategies: c.strategies}}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("add(%+v) = %v, want an error with %q", c.strategies, err, c.want)
		}
	}
	// Nothing of a refused descriptor was kept: its kind and its first strategy are free.
	if _, ok := s.StrategyOf("a"); ok {
		t.Error("a refused descriptor registered one of its strategies")
	}
	if err := s.Add(Descriptor{Store: "other", Shapes: []Shape{{Kind: "other", Strategies: []Strategy{{Name: "a", Position: 7}}}}}); err != nil {
		t.Errorf("after the refusals, a sound descriptor: %v", err)
	}
}

// A strategy awaits every independent node only where it declared so and its kind is
// one of independent masters.
func TestAStrategyAwaitsEveryIndependentNodeByItsOwnAndItsKinds(t *testing.T) {
	s := NewCatalog()
	if err := s.Add(Descriptor{Store: "quorum", Shapes: []Shape{
		{Kind: "quorum", Can: majority{}, Strategies: []Strategy{
			{Name: "quorum-all", Position: 0, AwaitsEveryNode: true},
			{Name: "quorum-fast", Position: 1}}},
		{Kind: "single-node", Strategies: []Strategy{{Name: "single-all", Position: 2, AwaitsEveryNode: true}}},
	}}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"quorum-all": true, "quorum-fast": false, "single-all": false,
		"nosuch-strategy": false} {
		if got := s.StrategyAwaitsEveryIndependentNode(name); got != want {
			t.Errorf("%s awaits every independent node: %v, want %v", name, got, want)
		}
	}
}

type majority struct{}

func (majority) Majority(s Spec) int { return s.Masters/2 + 1 }
