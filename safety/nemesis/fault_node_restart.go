package nemesis

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/topologies"
)

// nodeRestart kills the target nodes and starts them again on the same address, with
// no data (a lost disk), with what persistence wrote (nothing unless AppendFsync), or
// with what a host crash left of it (only what was fsynced).
type nodeRestart struct {
	mode topologies.RestartMode
}

func init() {
	Register(nodeRestart{topologies.RestartEmpty})
	Register(nodeRestart{topologies.RestartFromDisk})
	Register(nodeRestart{topologies.RestartAfterHostCrash})
}

func (f nodeRestart) Name() string {
	if f.mode == topologies.RestartAfterHostCrash {
		return "host-crash"
	}
	return "node-restart-" + f.mode.String()
}

func (f nodeRestart) Inject(ctx context.Context, t Target) (Heal, error) {
	if len(t.Nodes) == 0 {
		return nil, errors.New("needs nodes")
	}
	return NoHeal, onNodes(t, f.Name(), t.Nodes, func(n topologies.Node) error { return n.Restart(ctx, f.mode) })
}
