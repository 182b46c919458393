package nemesis

import (
	"context"
	"errors"
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
	t.note("node-pause " + nodeNames(t.Nodes))
	var errs []error
	for _, n := range t.Nodes {
		errs = append(errs, n.Pause())
	}
	nodes := t.Nodes
	return func(context.Context) error {
		t.note("node-resume " + nodeNames(nodes))
		var errs []error
		for _, n := range nodes {
			errs = append(errs, n.Resume())
		}
		return errors.Join(errs...)
	}, errors.Join(errs...)
}
