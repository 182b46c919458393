package nemesis

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/topologies"
)

// nodePause SIGSTOPs the target nodes; the heal SIGCONTs them. On a sentinel master
// held past down-after, the heal brings back a zombie master that still takes writes.
type nodePause struct{}

func init() { Register(nodePause{}) }

func (nodePause) Name() string { return "node-pause" }

func (nodePause) Inject(_ context.Context, t Target) (Heal, error) {
	if len(t.Nodes) == 0 {
		return nil, errors.New("needs nodes")
	}
	err := onNodes(t, "node-pause", t.Nodes, topologies.Node.Pause)
	nodes := t.Nodes
	return func(context.Context) error {
		return onNodes(t, "node-resume", nodes, topologies.Node.Resume)
	}, err
}
