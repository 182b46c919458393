package failover

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/topologies"
)

func zombieTrial(ctx context.Context, r *sentinelrig.Run, topo topologies.Topology, t *lab.Trial) error {
	st := r.Store
	old, err := st.Primary(ctx, topo)
	if err != nil {
		return lab.Failed("setup", err)
	}
	res := lab.NewResource("resource", false, t.Rec)
	heal, err := nemesis.Inject(ctx, "node-pause", nemesis.Target{Nodes: []topologies.Node{old}, Recorder: t.Rec})
	if err != nil {
		return lab.Failed("nemesis", err)
	}
	defer heal(context.Background()) // a stopped process must not outlive the trial
	next, err := lab.AwaitPromotion(ctx, t, st, topo, old, r.PromotionTimeout)
	if err != nil {
		return err
	}
	b, err := lab.SingleClient(ctx, "B", next.Addr(), t.Rec)
	if err != nil {
		return err
	}
	defer b.Locker.Close()
	leaseB, err := b.Acquire(ctx, t.Key, time.Minute)
	if err != nil {
		return lab.Failed("first-acquire", fmt.Errorf("B on the new master %s: %w", next.Name(), err))
	}
	if err := b.Enter(ctx, res, leaseB); err != nil {
		return err
	}
	if err := heal(ctx); err != nil {
		return lab.Failed("nemesis", err)
	}
	resumed := time.Now()
	probe := newZombieProbe(old, t)
	defer probe.close()
	if err := probe.write(ctx); err != nil {
		return err
	}
	// A's client still points at the old master, as a client with a fixed address does.
	a, err := lab.SingleClient(ctx, "A", old.Addr(), t.Rec)
	if err != nil {
		return err
	}
	defer a.Locker.Close()
	leaseA, errA := a.Acquire(ctx, t.Key, time.Minute)
	switch {
	case errA == nil:
		if err := a.Enter(ctx, res, leaseA); err != nil {
			return err
		}
		a.Write(ctx, res, leaseA)
	case errors.Is(errA, locks.ErrNotAcquired), lab.IsReadOnly(errA):
		// Taken there already, or already a replica: A holds nothing; the probes
		// say whether the old master was a zombie at all.
	default:
		return lab.Failed("zombie-acquire", fmt.Errorf("A on the old master %s: %w", old.Name(), errA))
	}
	for !probe.demoted && time.Since(resumed) < r.ZombieWatch {
		if err := lab.Sleep(ctx, zombieProbeInterval); err != nil {
			return err
		}
		if err := probe.write(ctx); err != nil {
			return err
		}
	}
	t.Input("probes", float64(probe.sent))
	t.Input("probes_accepted", float64(probe.accepted))
	if !probe.demoted { // the window outlasted the watch: a lower bound
		t.Input("window_open_at_watch", 1)
	}
	if probe.accepted == 0 && errA != nil {
		return lab.NoFault("the old master %s accepted no write after it resumed (A: %v): it was a replica already",
			old.Name(), errA)
	}
	t.Prove("the old master %s took writes after it resumed: %d of %d probes accepted, A's acquire there %s; %s",
		old.Name(), probe.accepted, probe.sent,
		map[bool]string{true: "granted", false: fmt.Sprintf("refused (%v)", errA)}[errA == nil],
		map[bool]string{true: "then it answered READONLY", false: "still accepting when the watch ended"}[probe.demoted])
	if errA == nil {
		a.Leave(res, leaseA)
	}
	b.Leave(res, leaseB)
	return nil
}

// zombieProbe writes to the old master outside any lock and records each answer as a
// probe for check.SplitBrain. Only READONLY means the node was demoted; any other
// failure is the trial's error.
type zombieProbe struct {
	node           topologies.Node
	t              *lab.Trial
	c              *redis.Client
	key            string
	sent, accepted int
	demoted        bool
}

func newZombieProbe(node topologies.Node, t *lab.Trial) *zombieProbe {
	return &zombieProbe{node: node, t: t, c: lab.PlainClient(node.Addr()), key: "lockbench:zombie-probe:" + t.Key}
}

func (p *zombieProbe) close() { p.c.Close() }

func (p *zombieProbe) set(ctx context.Context) error {
	pctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return p.c.Set(pctx, p.key, p.sent, time.Minute).Err()
}

func (p *zombieProbe) write(ctx context.Context) error {
	err := p.set(ctx)
	if err != nil && !lab.IsReadOnly(err) {
		// Sentinel kills an instance's clients (CLIENT KILL TYPE normal) as it turns it
		// into a replica: one retry on a new connection tells a demotion from a failure.
		err = p.set(ctx)
	}
	if err != nil && !lab.IsReadOnly(err) {
		return lab.Failed("probe", fmt.Errorf("probe write to %s: %w", p.node.Name(), err))
	}
	p.sent++
	e := history.Event{Client: "observer", Kind: history.ProbeWritten, Key: p.key, Node: p.node.Addr(),
		Accepted: err == nil}
	if err != nil {
		e.Detail = err.Error()
		p.demoted = true
	} else {
		p.accepted++
	}
	p.t.Rec.Record(e)
	return nil
}
