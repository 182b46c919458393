package sentinelrig

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// DescribeKey says what a node holds under the lock's key, against A's token.
func DescribeKey(s redisadmin.KeyState, token string) string {
	switch {
	case !s.Present:
		return "absent"
	case s.Value == token:
		return fmt.Sprintf("A's token, PTTL %v", s.TTL)
	}
	return fmt.Sprintf("another token (%s)", s.Value)
}

// ProveCut reads the master's replication state after the grant: the cut took only
// if no replica acknowledged the grant's place in the stream.
func ProveCut(ctx context.Context, t *lab.Trial, master topologies.Node) error {
	info, err := redisadmin.Replication(ctx, master.Addr())
	if err != nil {
		return lab.Failed("observe", fmt.Errorf("INFO replication on %s: %w", master.Name(), err))
	}
	for _, r := range info.Replicas {
		if r.Offset >= info.Offset {
			return lab.NoFault("replica %s acknowledged offset %d, the master's %d after the grant: the cut did not hold",
				r.Addr, r.Offset, info.Offset)
		}
	}
	if len(info.Replicas) == 0 {
		t.Prove("before the kill the master %s had no replica connected (offset %d after the grant)", master.Name(),
			info.Offset)
	} else {
		t.Prove("before the kill every replica of %s had acknowledged less than its offset %d after the grant: %+v",
			master.Name(), info.Offset, info.Replicas)
	}
	return nil
}

// ProveKeyThenContest ends a trial on the node that is master after the fault: A's key
// read there is the proof (where names the node as the proof says it), B then tries
// for the lock there, and A leaves the resource.
func ProveKeyThenContest(ctx context.Context, t *lab.Trial, kr lab.KeyReader, topo topologies.Topology,
	master topologies.Node, where string, a *lab.Client, res *lab.Resource, lease locks.Lease) error {
	state, err := lab.ObserveKey(ctx, t, kr, topo, master, t.Key)
	if err != nil {
		return err
	}
	t.Prove("read %s on %s: %s", t.Key, where, DescribeKey(state, lease.Token))
	if err := SecondHolder(ctx, t, res, master); err != nil {
		return err
	}
	a.Leave(res, lease)
	return nil
}

// SecondHolder is client B, which knows the new master: granted, it works briefly
// inside the resource; refused because the key is there, it stops. A master refusing
// writes for want of replicas (min-replicas) is waited out for a while; anything
// else, or no answer in time, ends the trial as an error.
func SecondHolder(ctx context.Context, t *lab.Trial, res *lab.Resource, master topologies.Node) error {
	b, err := lab.SingleClient(ctx, "B", master.Addr(), t.Rec)
	if err != nil {
		return err
	}
	defer b.Locker.Close()
	patience := time.Now().Add(SecondClientPatience)
	for {
		lease, err := b.Acquire(ctx, t.Key, time.Minute)
		switch {
		case err == nil:
			if err := b.Enter(ctx, res, lease); err != nil {
				return err
			}
			b.Write(ctx, res, lease)
			if err := lab.Sleep(ctx, 20*time.Millisecond); err != nil {
				return err
			}
			b.Leave(res, lease)
			_ = b.Release(ctx, lease)
			return nil
		case errors.Is(err, locks.ErrNotAcquired):
			return nil
		case lab.IsReplicationRefusal(err) && time.Now().Before(patience):
			if err := lab.Sleep(ctx, 10*time.Millisecond); err != nil {
				return err
			}
		default:
			return lab.Failed("second-acquire",
				fmt.Errorf("B on the promoted %s (patience %v): %w", master.Name(), SecondClientPatience, err))
		}
	}
}
