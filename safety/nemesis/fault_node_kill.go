package nemesis

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/topologies"
)

// nodeKill SIGKILLs the target nodes: no goodbye, no save. Nothing heals it (restart
// the node with node-restart-* if the scenario wants it back).
type nodeKill struct{}

func init() { Register(nodeKill{}) }

func (nodeKill) Name() string { return "node-kill" }

func (nodeKill) Inject(_ context.Context, t Target) (Heal, error) {
	if len(t.Nodes) == 0 {
		return nil, errors.New("needs nodes")
	}
	return NoHeal, onNodes(t, "node-kill", t.Nodes, topologies.Node.Kill)
}
