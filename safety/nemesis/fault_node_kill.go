package nemesis

import (
	"context"
	"errors"
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
	t.note("node-kill " + nodeNames(t.Nodes))
	var errs []error
	for _, n := range t.Nodes {
		errs = append(errs, n.Kill())
	}
	return NoHeal, errors.Join(errs...)
}
