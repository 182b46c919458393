package store

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
)

func strategy(name string, kind backend.Kind) locks.Strategy {
	return locks.Strategy{Strategy: backend.Strategy{Name: name}, Spec: backend.Spec{Kind: kind}}
}

// Each strategy lands under the kind it runs on, and the descriptor a store gives is
// left as it was.
func TestTheDescriptorTakesEachStrategyUnderItsKind(t *testing.T) {
	s := Store{Descriptor: backend.Descriptor{Store: "kv", Shapes: []backend.Shape{{Kind: "kv-one"}, {Kind: "kv-two"}}},
		Strategies: []locks.Strategy{strategy("a", "kv-two"), strategy("b", "kv-one"), strategy("c", "kv-two")}}
	d, err := described(s)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sh := range d.Shapes {
		for _, st := range sh.Strategies {
			got = append(got, string(sh.Kind)+":"+st.Name)
		}
	}
	if want := "kv-one:b kv-two:a kv-two:c"; strings.Join(got, " ") != want {
		t.Errorf("strategies by kind: %v, want %s", got, want)
	}
	if len(s.Descriptor.Shapes[1].Strategies) != 0 {
		t.Error("described changed the store's own descriptor")
	}
}

// A strategy on a kind the store does not start, one without a name, and a descriptor
// that declares strategies itself are each refused, naming what is wrong.
func TestAStoreThatDoesNotAddUpIsRefused(t *testing.T) {
	kinds := []backend.Shape{{Kind: "kv-one"}}
	for _, tc := range []struct {
		store Store
		want  string
	}{
		{Store{Descriptor: backend.Descriptor{Store: "kv", Shapes: kinds},
			Strategies: []locks.Strategy{strategy("a", "kv-other")}}, `runs on kind "kv-other"`},
		{Store{Descriptor: backend.Descriptor{Store: "kv", Shapes: kinds},
			Strategies: []locks.Strategy{strategy("", "kv-one")}}, "has no name"},
		{Store{Descriptor: backend.Descriptor{Store: "kv", Shapes: []backend.Shape{{Kind: "kv-one",
			Strategies: []backend.Strategy{{Name: "a"}}}}}}, "Store.Strategies holds them"},
	} {
		if _, err := described(tc.store); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error saying %q", tc.store.Strategies, err, tc.want)
		}
	}
}
