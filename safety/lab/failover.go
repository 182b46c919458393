package lab

import (
	"context"
	"strings"
	"time"

	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/topologies"
)

// KillPrimary SIGKILLs old, the store's primary, and awaits another's promotion for
// at most timeout: the one way every scenario causes a failover. No promotion ends
// the trial as fault_not_produced; a promotion is recorded as the trial's proof.
func KillPrimary(ctx context.Context, t *Trial, st Promoter, topo topologies.Topology, old topologies.Node,
	timeout time.Duration) (topologies.Node, error) {
	return KillLaggedPrimary(ctx, t, st, topo, old, nemesis.NoHeal, timeout)
}

// KillLaggedPrimary is KillPrimary for a primary whose followers were made to lag:
// endLag (ReplicationControl.Lag's) runs once old is dead, before the wait.
func KillLaggedPrimary(ctx context.Context, t *Trial, st Promoter, topo topologies.Topology, old topologies.Node,
	endLag func(context.Context) error, timeout time.Duration) (topologies.Node, error) {
	if _,
		err := nemesis.Inject(ctx, "node-kill",
		nemesis.Target{Topology: topo, Nodes: []topologies.Node{old}, Recorder: t.Rec}); err != nil {
		return nil, Failed("nemesis", err)
	}
	if err := endLag(ctx); err != nil {
		return nil, Failed("nemesis", err)
	}
	return AwaitPromotion(ctx, t, st, topo, old, timeout)
}

// AwaitPromotion waits at most timeout for a primary other than old (stopped, killed
// or cut off by the caller).
func AwaitPromotion(ctx context.Context, t *Trial, st Promoter, topo topologies.Topology, old topologies.Node,
	timeout time.Duration) (topologies.Node, error) {
	return AwaitPromotionAfter(ctx, t, st, topo, old, timeout, old.Name()+" stopped")
}

// AwaitPromotionAfter is AwaitPromotion for a promotion caused otherwise (a planned
// failover): since says what it follows, for the proof.
func AwaitPromotionAfter(ctx context.Context, t *Trial, st Promoter, topo topologies.Topology, old topologies.Node,
	timeout time.Duration, since string) (topologies.Node, error) {
	from := time.Now()
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var next topologies.Node
	var err error
	if k, ok := st.(keyedPromoter); ok {
		next, err = k.AwaitPromotionOf(pctx, topo, old, t.Key)
	} else {
		next, err = st.AwaitPromotion(pctx, topo, old)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, NoFault("no promotion away from %s within %v: %v", old.Name(), timeout, err)
	}
	t.Prove("%s promoted %v after %s", next.Name(), time.Since(from).Round(time.Millisecond), since)
	return next, nil
}

// ReplicasOf are topo's redis servers other than primary (and the sentinels).
func ReplicasOf(topo topologies.Topology, primary topologies.Node) (replicas []topologies.Node) {
	for _, n := range append(topo.Masters(), topo.Replicas()...) {
		if n.Addr() != primary.Addr() {
			replicas = append(replicas, n)
		}
	}
	return replicas
}

// IsReadOnly is a write refused by a replica (or by a master sentinel turned into one).
func IsReadOnly(err error) bool { return err != nil && strings.HasPrefix(err.Error(), "READONLY") }
