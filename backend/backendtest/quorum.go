// Package backendtest registers fake stores for tests that must show a choice follows
// what a store declares, not its name.
package backendtest

import "github.com/lockbench/lockbench/backend"

// RegisterQuorumStore registers prefix+"-store": one kind of independent masters with
// two strategies, prefix+"-waits", whose client declares it awaits every node, and
// prefix+"-fast", which declares nothing of its own. Its rank and positions (3000 on)
// stay clear of the real stores'; call it once per test program.
func RegisterQuorumStore(prefix string) {
	backend.Register(backend.Descriptor{Store: prefix + "-store", Shapes: []backend.Shape{{
		Kind: backend.Kind(prefix + "-kind"), Rank: 3000, Capabilities: []backend.Capability{backend.IndependentMajority},
		Strategies: []backend.Strategy{
			{Name: prefix + "-waits", Position: 3000, Capabilities: []backend.Capability{backend.AwaitsEveryNode}},
			{Name: prefix + "-fast", Position: 3001},
		}}}})
}
