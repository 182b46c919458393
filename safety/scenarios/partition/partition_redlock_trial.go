package partition

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// redlockPartitionTrial is one trial of redlock-partition on a five-node topology.
type redlockPartitionTrial struct {
	topo topologies.Topology
	part topologies.Partitioner
	v    redlockPartitionVariant
	ttl  time.Duration
	t    *lab.Trial
}

// The sides of the partition: A sits beside node 0 and loses 3 and 4; B sits beside
// node 4 and loses 0 and 1; node 2 is the one both majorities share.
var (
	aReach = map[int]bool{0: true, 1: true, 2: true}
	bReach = map[int]bool{2: true, 3: true, 4: true}
	all5   = map[int]bool{0: true, 1: true, 2: true, 3: true, 4: true}
)

const shared = 2

func (r redlockPartitionTrial) run(ctx context.Context) error {
	t, nodes := r.t, r.topo.Masters()
	for _, n := range nodes { // a previous trial's victim comes back first
		if !n.Running() {
			if err := n.Restart(ctx, topologies.RestartEmpty); err != nil {
				return lab.Failed("setup", err)
			}
		}
	}
	res := lab.NewResource("resource", false, t.Rec)
	a, closeA, dialA, err := r.clientBeside(ctx, "A", nodes[0])
	if err != nil {
		return err
	}
	defer closeA()
	if r.v.cutA {
		if err := r.cut(nodes[0], nodes[3], nodes[4]); err != nil {
			return err
		}
	}
	var b *lab.Client
	if r.v.restart {
		var closeB func()
		var dialB dialFunc
		if b, closeB, dialB, err = r.clientBeside(ctx, "B", nodes[4]); err != nil {
			return err
		}
		defer closeB()
		if err := r.cut(nodes[4], nodes[0], nodes[1]); err != nil {
			return err
		}
		if err := proveReach(ctx, t, "B (beside node 4)", dialB, nodes, bReach); err != nil {
			return err
		}
	} else {
		lb, err := locks.AtAddrs(ctx, "redlock", topologies.Addrs(nodes), locks.Options{})
		if err != nil {
			return lab.Failed("setup", err)
		}
		defer lb.Close()
		b = lab.NewClient("B", lb, t.Rec)
	}
	want := all5
	if r.v.cutA {
		want = aReach
	}
	if err := proveReach(ctx, t, "A (beside node 0)", dialA, nodes, want); err != nil {
		return err
	}

	victim := nodes[shared]
	before, err := redisadmin.RunID(ctx, victim.Addr())
	if err != nil {
		return lab.Failed("observe", err)
	}
	lease, err := a.Acquire(ctx, t.Key, r.ttl)
	if err != nil {
		return lab.Failed("first-acquire", fmt.Errorf("A reaching %d of 5 nodes: %w", len(want), err))
	}
	granted := time.Now()
	// redsync's validity is what is left at the grant: the TTL less drift less the time it took.
	t.Input("validity_ms", lab.Millis(lease.ValidUntil.Sub(granted)))
	t.Input("acquire_ms", lab.Millis(granted.Sub(lease.Start)))
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	on, err := holders(ctx, nodes, t.Key, lease.Token)
	if err != nil {
		return lab.Failed("observe", err)
	}
	if !slices.Equal(on, lab.Keys(want)) {
		return lab.NoFault("A's key is on nodes %v, want %v", on, lab.Keys(want))
	}
	t.Prove("A granted on nodes %v (validity %v of a %v TTL, after %v)", on,
		lease.ValidUntil.Sub(granted).Round(time.Millisecond), r.ttl, granted.Sub(lease.Start).Round(time.Millisecond))

	aInside := true
	if r.v.restart {
		if aInside, err = r.restartShared(ctx, a, res, lease, victim, before); err != nil {
			return err
		}
	}
	tryCtx, tryCancel := context.WithTimeout(ctx, r.bPatience(aInside, lease))
	leaseB, err := b.AcquireUntil(tryCtx, t.Key, r.ttl, 20*time.Millisecond)
	tryCancel()
	switch {
	case err == nil:
		if r.v.restart {
			onB, err := holders(ctx, nodes, t.Key, leaseB.Token)
			if err != nil {
				return lab.Failed("observe", err)
			}
			t.Prove("B granted on nodes %v", onB)
		}
		b.Work(ctx, res, leaseB, func() { _ = lab.Sleep(ctx, 50*time.Millisecond) })
		defer release(ctx, b, leaseB)
	case !errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return lab.Failed("second-acquire", err)
	}
	if aInside {
		if time.Now().After(lease.ValidUntil) {
			return lab.Failed("timing", fmt.Errorf("A's validity ended before B was done (%v after A's grant, the restart "+
				"took %.0f ms): the %v TTL is too short for this machine",
				time.Since(granted).Round(time.Millisecond), t.Inputs["restart_ms"], r.ttl))
		}
		a.Write(ctx, res, lease)
		a.Leave(res, lease)
		defer release(ctx, a, lease)
	}
	return nil
}

// bPatience is how long B keeps asking. Without a restart B is refused while A holds,
// and half a second of refusals shows it; after one, B must get in, and on a loaded
// machine its first attempts past the restart outlasted half a second: it asks for up to
// 20 s, and while A is inside no longer than A's validity (two holders need both in).
func (r redlockPartitionTrial) bPatience(aInside bool, lease locks.Lease) time.Duration {
	if !r.v.restart {
		return 500 * time.Millisecond
	}
	if aInside {
		return min(20*time.Second, time.Until(lease.ValidUntil))
	}
	return 20 * time.Second
}

// release gives a lease back within a bound: a cut node would hold it for the client's
// whole dial and read timeouts, and what a release does is not judged here.
func release(ctx context.Context, c *lab.Client, lease locks.Lease) {
	rctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	_ = c.Release(rctx, lease)
}

// restartShared restarts the node both majorities share with no data: at once, or,
// delayed, killed now and back only after A's TTL (A stops at the end of its validity).
// It returns whether A is still inside.
func (r redlockPartitionTrial) restartShared(ctx context.Context, a *lab.Client, res *lab.Resource, lease locks.Lease,
	victim topologies.Node, before string) (bool, error) {
	t, inside := r.t, true
	if r.v.delayed {
		if _,
			err := nemesis.Inject(ctx, "node-kill",
			nemesis.Target{Nodes: []topologies.Node{victim}, Recorder: t.Rec}); err != nil {
			return inside, lab.Failed("nemesis", err)
		}
		_ = lab.Sleep(ctx, time.Until(lease.ValidUntil))
		a.Leave(res, lease)
		inside = false
		_ = lab.Sleep(ctx, time.Until(lease.Start.Add(r.ttl)))
	}
	from := time.Now()
	if _,
		err := nemesis.Inject(ctx, "node-restart-empty",
		nemesis.Target{Nodes: []topologies.Node{victim}, Recorder: t.Rec}); err != nil {
		return inside, lab.Failed("nemesis", err)
	}
	t.Input("restart_ms", lab.Millis(time.Since(from)))
	return inside, lab.ProveRestart(ctx, t, victim, before, true)
}

// clientBeside is a recorded Redlock client whose connections open in n's namespace.
func (r redlockPartitionTrial) clientBeside(ctx context.Context, id string, n topologies.Node) (*lab.Client, func(),
	dialFunc, error) {
	dial, err := dialerInside(n)
	if err != nil {
		return nil, nil, nil, lab.Failed("setup", err)
	}
	l,
		err := locks.AtAddrs(ctx, "redlock", topologies.Addrs(r.topo.Masters()),
		locks.Options{Options: redisconn.Options{Dialer: dial}})
	if err != nil {
		return nil, nil, nil, lab.Failed("setup", err)
	}
	return lab.NewClient(id, l, r.t.Rec), func() { l.Close() }, dial, nil
}

// cut cuts n from each of from, recorded as the nemesis' act.
func (r redlockPartitionTrial) cut(n topologies.Node, from ...topologies.Node) error {
	for _, m := range from {
		if err := r.part.Cut(n, m); err != nil {
			return lab.Failed("nemesis", err)
		}
	}
	r.t.Rec.Record(history.Event{Client: "nemesis", Kind: history.FaultInjected, Detail: fmt.Sprintf(
		"partition: %s cut from %s", n.Name(), nodeList(from))})
	return nil
}

func nodeList(ns []topologies.Node) string {
	names := make([]string, len(ns))
	for i, n := range ns {
		names[i] = n.Name()
	}
	return fmt.Sprint(names)
}
