// Package backendtest builds catalogs of fake stores for tests: a quorum store, to show
// a choice follows what a store declares, not its name, and a fixture close to the
// real stores' metadata for the packages that read no registry (fixture.go).
package backendtest

import "github.com/lockbench/lockbench/backend"

// QuorumStore is prefix+"-store": one kind of independent masters with two strategies,
// prefix+"-waits", whose client declares it awaits every node, and prefix+"-fast",
// which declares nothing of its own. Its rank and positions (3000 on) stay clear of the
// real stores', so it can join their catalog.
func QuorumStore(prefix string) backend.Descriptor {
	return backend.Descriptor{Store: prefix + "-store", Shapes: []backend.Shape{{
		Kind: backend.Kind(prefix + "-kind"), Rank: 3000, Can: independentMasters{},
		Strategies: []backend.Strategy{
			{Name: prefix + "-waits", Position: 3000, AwaitsEveryNode: true},
			{Name: prefix + "-fast", Position: 3001},
		}}}}
}
