package partition

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

// clusterSplitTrial is one trial on a fresh cluster.
type clusterSplitTrial struct {
	c    clusterSplitConfig
	v    clusterSplitVariant
	topo topologies.Topology
	t    *lab.Trial
}

func (tr clusterSplitTrial) run(ctx context.Context) error {
	st, t, topo := tr.v.store, tr.t, tr.topo
	part, err := topologies.PartitionerOf(topo)
	if err != nil {
		return lab.Failed("setup", err)
	}
	old, err := st.PrimaryFor(ctx, topo, t.Key)
	if err != nil {
		return lab.Failed("setup", err)
	}
	// A sits beside the key's master: the cut around that master cuts A from the rest.
	dialA, err := dialerInside(old)
	if err != nil {
		return lab.Failed("setup", err)
	}
	la, err := st.PlacedLocker(ctx, []topologies.Node{old}, dialA, tr.v.waitReplicas, tr.c.waitTimeout)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer la.Close()
	// The cluster client learns the slot map and dials the master at its first command:
	// before the cut, as a client that was running when the network split.
	warm, err := la.Acquire(ctx, "lockbench:warm:{"+t.Key+"}", time.Minute)
	if err != nil {
		return lab.Failed("setup", err)
	}
	if err := la.Release(ctx, warm); err != nil {
		return lab.Failed("setup", err)
	}
	a := lab.NewClient("A", la, t.Rec)
	res := lab.NewResource("resource", false, t.Rec)
	probe := newGrantProbe(old, t)
	defer probe.close()
	t.Input("node_timeout_ms", lab.Millis(tr.v.nodeTimeout))

	defer part.HealAll()
	if err := topologies.Isolate(part, old, topo.Nodes()); err != nil {
		return lab.Failed("nemesis", err)
	}
	cutAt := time.Now()
	t.Rec.Record(history.Event{Client: "nemesis", Kind: history.FaultInjected, Detail: "partition: " + old.Name() + " and A cut from every other node"})
	// The first probe marks the cut, and the probes go on while A asks (WAIT 1 waits):
	// the window runs from the cut.
	if err := probe.grant(ctx); err != nil {
		return err
	}
	aDone := make(chan aResult, 1)
	go func() { aDone <- lockOnMinority(ctx, a, res, t.Key, tr.c.ttl) }()
	w := &clusterWatch{tr: tr, probe: probe, old: old, part: part, dialA: dialA, res: res, cutAt: cutAt}
	b, err := w.run(ctx)
	ar := <-aDone // A's one attempt is bounded by its command timeout
	if err != nil {
		return err
	}
	defer b.close()
	switch {
	case ar.err == nil:
	case lab.IsReplicationRefusal(ar.err):
		t.Input("a_refused", 1) // WAIT: the replica is on the other side
	default:
		return lab.Failed("first-acquire", ar.err)
	}
	return b.finish(ctx, res, a, ar.lease, tr.c.ttl)
}

// aResult is A's attempt: its lease (nil when refused) and entry in the resource.
type aResult struct {
	lease *locks.Lease
	err   error
}

// lockOnMinority is A's one attempt on the cut master, right after the cut; granted, A
// enters the resource at once (long before B can be granted: B waits for a promotion).
func lockOnMinority(ctx context.Context, a *lab.Client, res *lab.Resource, key string, ttl time.Duration) aResult {
	lease, err := a.Acquire(ctx, key, ttl)
	if err == nil {
		err = a.Enter(ctx, res, lease)
	}
	if err != nil {
		return aResult{err: err}
	}
	return aResult{lease: &lease}
}

// lockOnMajority is B: beside the promoted replica, learning the cluster from the
// masters on its side, it takes the trial's lock, trying until granted or patience
// runs out (the first tries may meet a slot map not yet updated, or, waiting for a
// replica, a promoted master that has none until the old one rejoins it).
func (tr clusterSplitTrial) lockOnMajority(ctx context.Context, next, old topologies.Node, res *lab.Resource, patience time.Duration) bResult {
	dial, err := dialerInside(next)
	if err != nil {
		return bResult{err: lab.Failed("setup", err)}
	}
	seeds := []topologies.Node{next}
	for _, m := range tr.topo.Masters() {
		if m != old {
			seeds = append(seeds, m)
		}
	}
	deadline := time.Now().Add(patience)
	var b *lab.Client
	for {
		if b == nil {
			if l, err := tr.v.store.PlacedLocker(ctx, seeds, dial, tr.v.waitReplicas, tr.c.waitTimeout); err == nil {
				b = lab.NewClient("B", l, tr.t.Rec)
			} else if time.Now().After(deadline) {
				return bResult{err: lab.Failed("setup", fmt.Errorf("B's locker beside %s: %w", next.Name(), err))}
			}
		}
		if b != nil {
			lease, err := b.Acquire(ctx, tr.t.Key, tr.c.ttl)
			if err == nil {
				granted := time.Now()
				if err := b.Enter(ctx, res, lease); err != nil {
					b.Locker.Close()
					return bResult{err: err}
				}
				return bResult{client: b, lease: lease, grantedAt: granted, enteredAt: time.Now(), close: func() { b.Locker.Close() }}
			}
			if time.Now().After(deadline) {
				b.Locker.Close()
				return bResult{err: lab.Failed("second-acquire", fmt.Errorf("B beside the promoted %s: %w", next.Name(), err))}
			}
		}
		if err := lab.Sleep(ctx, splitProbeInterval); err != nil {
			if b != nil {
				b.Locker.Close()
			}
			return bResult{err: err}
		}
	}
}

// majorityObserver is a master on the majority side, to ask whether it flags old failed.
func (tr clusterSplitTrial) majorityObserver(old topologies.Node) topologies.Node {
	for _, m := range tr.topo.Masters() {
		if m != old {
			return m
		}
	}
	return nil
}

// index is n's position among nodes, -1 when absent.
func index(nodes []topologies.Node, n topologies.Node) int {
	for i, m := range nodes {
		if m == n {
			return i
		}
	}
	return -1
}
