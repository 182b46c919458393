package topologies

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Reformer is a deployment that can be brought back to health in place after a trial
// broke it (a failover), instead of started afresh: the store's provider knows how.
type Reformer interface {
	Reform(ctx context.Context) (Reformed, error)
}

// Reformed is what a re-form did.
type Reformed struct {
	Master    string   // the master every sentinel names
	Restarted []string // nodes restarted empty (killed ones)
	Repointed []string // nodes told REPLICAOF the master (a zombie master, a stray replica)
	Took      time.Duration
}

// ErrNotReformable says a topology cannot be re-formed in place.
var ErrNotReformable = errors.New("topology cannot be re-formed in place")

// Reform re-forms topo in place, or says that its provider cannot.
func Reform(ctx context.Context, topo Topology) (Reformed, error) {
	r, ok := topo.(Reformer)
	if !ok {
		return Reformed{},
			fmt.Errorf("reform: a %s topology of provider %s: %w", topo.Spec().Kind, topo.Provider(), ErrNotReformable)
	}
	return r.Reform(ctx)
}
