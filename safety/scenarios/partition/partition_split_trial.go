package partition

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// splitProbeInterval paces the grant probes on the old master.
const splitProbeInterval = 20 * time.Millisecond

// bPatience: a promoted replica with min-replicas-to-write refuses B until sentinel
// has re-pointed the other replica to it.
const bPatience = 10 * time.Second

func (c splitBrainConfig) trial(ctx context.Context, topo topologies.Topology, t *lab.Trial) error {
	fo := c.store
	part, err := topologies.PartitionerOf(topo)
	if err != nil {
		return lab.Failed("setup", err)
	}
	old, err := fo.Primary(ctx, topo)
	if err != nil {
		return lab.Failed("setup", err)
	}
	before, err := redisadmin.Replication(ctx, old.Addr())
	if err != nil {
		return lab.Failed("observe", err)
	}
	res := lab.NewResource("resource", false, t.Rec)
	// A's client has the old master's address and reaches it from the host.
	a, err := lab.SingleClient(ctx, "A", old.Addr(), t.Rec)
	if err != nil {
		return err
	}
	defer a.Locker.Close()

	defer part.HealAll()
	if err := topologies.Isolate(part, old, topo.Nodes()); err != nil {
		return lab.Failed("nemesis", err)
	}
	cutAt := time.Now()
	t.Rec.Record(history.Event{Client: "nemesis", Kind: history.FaultInjected, Detail: "partition: " + old.Name() +
		" cut from every replica and sentinel"})
	leaseA, err := a.Acquire(ctx, t.Key, c.ttl)
	if err != nil {
		return lab.FirstGrant(err)
	}
	if err := a.Enter(ctx, res, leaseA); err != nil {
		return err
	}
	next, err := lab.AwaitPromotion(ctx, t, fo, topo, old, c.promotionTimeout)
	if err != nil {
		return err
	}
	t.Input("promotion_ms", lab.Millis(time.Since(cutAt)))
	probe := newGrantProbe(old, t)
	defer probe.close()
	if err := probe.grant(ctx); err != nil {
		return err
	}
	bDone := make(chan bResult, 1)
	go func() { bDone <- c.lockOnNewMaster(ctx, next, res, t) }()

	w := splitWatch{c: c, probe: probe, old: old, part: part, cutAt: cutAt, replicasBefore: len(before.Replicas)}
	if err := w.run(ctx, t); err != nil {
		if b := <-bDone; b.err == nil {
			b.close()
		}
		return err
	}
	b := <-bDone
	if b.err != nil {
		return b.err
	}
	defer b.close()
	t.Prove("B granted on the new master %s %v after the cut", next.Name(), b.grantedAt.Sub(cutAt).Round(time.Millisecond))
	return b.finish(ctx, res, a, &leaseA, c.ttl)
}

// finish checks that B entered while A's lease (nil: A holds none) was still valid,
// then lets A and B each write and leave, and B release.
func (b bResult) finish(ctx context.Context, res *lab.Resource, a *lab.Client, leaseA *locks.Lease,
	ttl time.Duration) error {
	if leaseA != nil && b.enteredAt.After(leaseA.ValidUntil) {
		return lab.Failed("timing", fmt.Errorf(
			"B entered %v after A's validity ended: the %v TTL is too short for this promotion",
			b.enteredAt.Sub(leaseA.ValidUntil), ttl))
	}
	if leaseA != nil {
		a.Write(ctx, res, *leaseA)
		a.Leave(res, *leaseA)
	}
	b.client.Write(ctx, res, b.lease)
	b.client.Leave(res, b.lease)
	_ = b.client.Release(ctx, b.lease)
	return nil
}

type bResult struct {
	client               *lab.Client
	lease                locks.Lease
	grantedAt, enteredAt time.Time
	close                func()
	err                  error
}

// grantedB is B's result from its grant on: B enters res, and its locker stays open
// until the trial is done with B.
func grantedB(ctx context.Context, b *lab.Client, res *lab.Resource, lease locks.Lease) bResult {
	granted := time.Now()
	if err := b.Enter(ctx, res, lease); err != nil {
		b.Locker.Close()
		return bResult{err: err}
	}
	return bResult{client: b, lease: lease, grantedAt: granted, enteredAt: time.Now(), close: func() { b.Locker.Close() }}
}

// lockOnNewMaster is B: a client of the promoted master, which takes the lock A holds
// on the old one (the cut kept A's key from the replicas).
func (c splitBrainConfig) lockOnNewMaster(ctx context.Context, next topologies.Node, res *lab.Resource,
	t *lab.Trial) bResult {
	b, err := lab.SingleClient(ctx, "B", next.Addr(), t.Rec)
	if err != nil {
		return bResult{err: err}
	}
	deadline := time.Now().Add(bPatience)
	for {
		lease, err := b.Acquire(ctx, t.Key, c.ttl)
		if err == nil {
			return grantedB(ctx, b, res, lease)
		}
		if !lab.IsReplicationRefusal(err) && !errors.Is(err, locks.ErrNotAcquired) || time.Now().After(deadline) {
			b.Locker.Close()
			return bResult{err: lab.Failed("second-acquire", fmt.Errorf("B on the new master %s: %w", next.Name(), err))}
		}
		if err := lab.Sleep(ctx, splitProbeInterval); err != nil {
			b.Locker.Close()
			return bResult{err: err}
		}
	}
}
