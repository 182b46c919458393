// Package store is how a store joins lockbench: one value, registered once from its own
// folder, from which every list derives (the catalog's kinds and strategies, the lockers,
// the providers and their families, the auto rule, the container recipes, the safety
// adapters, the external deployment file's roles). backends/all imports each store's
// registration, one line a store.
package store

import (
	"fmt"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/scenarios/lostupdates/accounts"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/container"
	"github.com/lockbench/lockbench/topologies/external"
)

// Store is all a store adds.
type Store struct {
	// Descriptor names the store, its server and its kinds; each kind's strategies come
	// from Strategies, so a descriptor declares none of its own.
	Descriptor backend.Descriptor
	// Strategies are its ways of taking a lock (and lock-free ways to an update), each
	// declared once with its metadata; each runs on the kind of its Spec.
	Strategies []locks.Strategy
	// Providers start its kinds' servers where lockbench's own providers do not.
	Providers []Provider
	// Containers are its kinds' recipes for the container provider.
	Containers []Recipe
	// Lab is each kind's safety adapter: how the scenarios reach its servers.
	Lab map[backend.Kind]lab.StoreMaker
	// External is its part of the deployment file; nil when it has none.
	External *external.Store
	// Accounts are lost-updates' account rows, where this store keeps them; nil elsewhere.
	Accounts *Accounts
}

// Provider is one of a store's own providers.
type Provider struct {
	topologies.Provider
	// Kinds are those it serves.
	Kinds []backend.Kind
	// Default: it serves Kinds when no provider is named.
	Default bool
	// Families are the families (process, embedded, container) it answers for, for Kinds.
	Families []string
	// Auto is Kinds' own --provider auto rule, where the shared one does not fit; nil
	// for the shared one.
	Auto topologies.AutoChoiceFunc
}

// OwnProcess is a store's own process provider: the default for kind, the process
// family's member for it, with kind's --provider auto rule (nil: the shared one).
func OwnProcess(p topologies.Provider, kind backend.Kind, auto topologies.AutoChoiceFunc) Provider {
	return Provider{Provider: p, Kinds: []backend.Kind{kind}, Default: true, Families: []string{"process"}, Auto: auto}
}

// Recipe is a kind's servers in containers.
type Recipe struct {
	Kind  backend.Kind
	Start container.Recipe
	// Clocked: the recipe runs the spec's clock models on its servers.
	Clocked bool
}

// Accounts are the resource lost-updates applies its updates to.
type Accounts struct {
	Open  accounts.Open
	Modes []string // every way of applying an update the resource knows
}

// Register adds s to the program from the init of its registration package; a store, kind
// or strategy registered twice, or a strategy whose kind the store does not start, is a
// programming error and panics.
func Register(s Store) {
	d, err := described(s)
	if err != nil {
		panic(err)
	}
	linked.Register(d)
	for _, st := range s.Strategies {
		locks.Register(st)
	}
	for _, p := range s.Providers {
		if p.Default {
			topologies.RegisterProvider(p.Provider, p.Kinds...)
		} else {
			topologies.RegisterProvider(p.Provider)
		}
		for _, k := range p.Kinds {
			for _, f := range p.Families {
				topologies.JoinFamily(f, k, p.Name())
			}
			if p.Auto != nil {
				topologies.RegisterAutoChoice(k, p.Auto)
			}
		}
	}
	for _, r := range s.Containers {
		if r.Clocked {
			container.RegisterClockedRecipe(r.Kind, r.Start)
		} else {
			container.RegisterRecipe(r.Kind, r.Start)
		}
	}
	for k, adapter := range s.Lab {
		lab.RegisterStore(k, adapter)
	}
	if s.External != nil {
		external.RegisterStore(*s.External)
	}
	if s.Accounts != nil {
		accounts.Register(s.Accounts.Open, s.Accounts.Modes)
	}
}

// described is s's descriptor with each strategy's metadata under the kind it runs on.
func described(s Store) (backend.Descriptor, error) {
	d := s.Descriptor
	d.Shapes = append([]backend.Shape(nil), d.Shapes...)
	for _, sh := range d.Shapes {
		if len(sh.Strategies) > 0 {
			return d, fmt.Errorf("store %s: kind %s declares strategies in its descriptor; Store.Strategies holds them",
				d.Store, sh.Kind)
		}
	}
	for _, st := range s.Strategies {
		i := shapeOf(d.Shapes, st.Spec.Kind)
		if i < 0 {
			return d, fmt.Errorf("store %s: strategy %s runs on kind %q, which the store does not start",
				d.Store, st.Name, st.Spec.Kind)
		}
		if st.Strategy.Name == "" {
			return d, fmt.Errorf("store %s: a strategy of kind %s has no name", d.Store, st.Spec.Kind)
		}
		d.Shapes[i].Strategies = append(d.Shapes[i].Strategies, st.Strategy)
	}
	return d, nil
}

func shapeOf(shapes []backend.Shape, k backend.Kind) int {
	for i, sh := range shapes {
		if sh.Kind == k {
			return i
		}
	}
	return -1
}
