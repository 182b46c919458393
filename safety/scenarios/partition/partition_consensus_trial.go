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
)

// consensusPartitionTrial is one trial of consensus-partition on a three-member group.
type consensusPartitionTrial struct {
	topo          topologies.Topology
	part          topologies.Partitioner
	st            lab.Failover
	strategy      string
	ttl, election time.Duration
	t             *lab.Trial
}

func (r consensusPartitionTrial) run(ctx context.Context) error {
	t := r.t
	old, err := waitLeaderWithin(ctx, r.topo, r.election)
	if err != nil {
		return lab.Failed("setup", err)
	}
	var others []topologies.Node
	for _, n := range r.topo.Nodes() {
		if n.Name() != old.Name() {
			others = append(others, n)
		}
	}
	res := lab.NewResource("resource", false, t.Rec)
	locker := func(id string, members []topologies.Node) (*lab.Client, func(), error) {
		l, err := locks.ForTopology(ctx, r.strategy, pinnedTopology{r.topo, members}, locks.Options{})
		if err != nil {
			return nil, nil, lab.Failed("setup", fmt.Errorf("client %s: %w", id, err))
		}
		return lab.NewClient(id, l, t.Rec), func() { l.Close() }, nil
	}
	a, closeA, err := locker("A", []topologies.Node{old})
	if err != nil {
		return err
	}
	defer closeA()
	probeC, closeP, err := locker("A-grants", []topologies.Node{old})
	if err != nil {
		return err
	}
	defer closeP()
	b, closeB, err := locker("B", others)
	if err != nil {
		return err
	}
	defer closeB()

	lease, err := a.Acquire(ctx, t.Key, r.ttl)
	if err != nil {
		return lab.Failed("first-acquire", err)
	}
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	if err := topologies.Isolate(r.part, old, r.topo.Nodes()); err != nil {
		return lab.Failed("nemesis", err)
	}
	cutAt := time.Now()
	t.Rec.Record(history.Event{Client: "nemesis", Kind: history.FaultInjected, Detail: "partition: " + old.Name() +
		" cut from both followers"})

	bDone := make(chan error, 1)
	go func() { bDone <- r.lockOnMajority(ctx, b, res, cutAt) }()
	next, err := r.awaitLeaderAmong(ctx, old, others, cutAt)
	if err != nil {
		<-bDone
		return err
	}
	// From the majority's election on, the isolated leader is asked for locks of its own.
	granted, asked := 0, 0
	for time.Now().Before(lease.ValidUntil) {
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		_, perr := probeC.Locker.Acquire(pctx, fmt.Sprintf("%s:isolated-grant:%d", t.Key, asked), r.ttl)
		cancel()
		asked++
		e := history.Event{Client: "A-grants", Kind: history.ProbeWritten, Key: t.Key + ":isolated-grant", Node: old.Addr(),
			Accepted: perr == nil}
		if perr != nil {
			e.Detail = perr.Error()
		} else {
			granted++
		}
		t.Rec.Record(e)
		if ctx.Err() != nil {
			<-bDone
			return ctx.Err()
		}
	}
	a.Write(ctx, res, lease)
	a.Leave(res, lease) // A stops at the end of its validity
	if err := <-bDone; err != nil {
		return err
	}
	t.Input("isolated_grants_asked", float64(asked))
	t.Input("isolated_grants_accepted", float64(granted))
	if asked == 0 {
		return lab.NoFault("A's validity ended before the isolated leader could be asked for a grant")
	}
	t.Prove("the isolated leader %s (still running: %v) granted %d of %d locks asked of it after %s was elected",
		old.Name(), old.Running(), granted, asked, next.Name())
	return nil
}

// sideLeader is what a consensus topology offers to ask one side of a partition.
type sideLeader interface {
	LeaderAmong(ctx context.Context, among []topologies.Node) (topologies.Node, error)
}

// awaitLeaderAmong proves the cut from both sides: the majority agrees on a leader
// other than old, and old is asked whom it sees.
func (r consensusPartitionTrial) awaitLeaderAmong(ctx context.Context, old topologies.Node, others []topologies.Node,
	cutAt time.Time) (topologies.Node, error) {
	sl, ok := r.topo.(sideLeader)
	if !ok {
		// ZooKeeper's ensemble names the one server that says it leads: once the
		// isolated leader gives up, that is the majority's.
		sl = wholeGroup{r.topo}
	}
	deadline := time.Now().Add(r.election)
	for {
		next, err := sl.LeaderAmong(ctx, others)
		if err == nil && next.Name() != old.Name() {
			r.t.Input("election_ms", lab.Millis(time.Since(cutAt)))
			seen := "not asked: this group names one leader for all"
			if ok {
				seen = "none"
				if l, err := sl.LeaderAmong(ctx, []topologies.Node{old}); err == nil {
					seen = l.Name()
				}
			}
			r.t.Prove(
				"%s elected leader by the majority %v after %s was cut from both followers (the isolated one sees as leader: %s)",
				next.Name(), time.Since(cutAt).Round(time.Millisecond), old.Name(), seen)
			return next, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if time.Now().After(deadline) {
			return nil, lab.NoFault("no leader among %s within %v of the cut (last: %v)", nodeList(others), r.election, err)
		}
		_ = lab.Sleep(ctx, 20*time.Millisecond)
	}
}

// wholeGroup asks the whole group for its leader, whichever side is asked about.
type wholeGroup struct{ topo topologies.Topology }

func (w wholeGroup) LeaderAmong(ctx context.Context, _ []topologies.Node) (topologies.Node, error) {
	return waitLeaderWithin(ctx, w.topo, 100*time.Millisecond)
}

// lockOnMajority is B on the two followers: it keeps trying until granted, through the
// election's errors, for at most the lease and the election beyond it.
func (r consensusPartitionTrial) lockOnMajority(ctx context.Context, b *lab.Client, res *lab.Resource,
	cutAt time.Time) error {
	deadline := cutAt.Add(3*r.ttl + r.election)
	for {
		actx, cancel := context.WithTimeout(ctx, time.Second)
		lease, err := b.Acquire(actx, r.t.Key, r.ttl)
		cancel()
		if err == nil {
			r.t.Input("b_granted_after_cut_ms", lab.Millis(time.Since(cutAt)))
			r.t.Prove("B granted on the majority %v after the cut", time.Since(cutAt).Round(time.Millisecond))
			_ = b.Enter(ctx, res, lease)
			b.Write(ctx, res, lease)
			b.Leave(res, lease)
			rctx, rcancel := context.WithTimeout(ctx, time.Second)
			_ = b.Release(rctx, lease)
			rcancel()
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Now().After(deadline) {
			return lab.Failed("second-acquire",
				fmt.Errorf("B on the majority, %v after the cut: %w", time.Since(cutAt).Round(time.Millisecond), err))
		}
		if !errors.Is(err, locks.ErrNotAcquired) {
			_ = lab.Sleep(ctx, 50*time.Millisecond)
		}
		_ = lab.Sleep(ctx, 20*time.Millisecond)
	}
}

// waitLeaderWithin is the group's leader, waited for at most d (a heal re-elects).
func waitLeaderWithin(ctx context.Context, topo topologies.Topology, d time.Duration) (topologies.Node, error) {
	wctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return lab.WaitLeader(wctx, topo)
}
