package lockstest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// Leaders is a consensus deployment that names its leader (an etcd cluster, a
// ZooKeeper ensemble).
type Leaders interface {
	WaitLeader(ctx context.Context) (topologies.Node, error)
}

// FencesIncreaseAcrossLeaderKill kills the leader of c in the middle of a run of
// acquisitions on l, then restarts it from disk: every granted fence must exceed the
// one before.
func FencesIncreaseAcrossLeaderKill(t *testing.T, l locks.Locker, c Leaders) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var fences []int64
	cycles := func() {
		for i := 0; i < 10; i++ {
			fences = append(fences, fencedCycle(ctx, t, l))
		}
	}
	cycles()
	leader, err := c.WaitLeader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := leader.Kill(); err != nil {
		t.Fatal(err)
	}
	cycles()
	next, err := c.WaitLeader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if next.Name() == leader.Name() {
		t.Fatalf("leadership did not change: %s still leads", next.Name())
	}
	if err := leader.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatal(err)
	}
	cycles()
	if bad := FirstNonIncreasing(fences); bad >= 0 {
		t.Errorf("fence %d at grant %d does not exceed %d before it: %v", fences[bad], bad, fences[bad-1], fences)
	}
}

// fencedCycle takes the lock through an election in progress and releases it (a
// release that finds the lease gone ends the cycle too); it returns the lease's fence.
func fencedCycle(ctx context.Context, t *testing.T, l locks.Locker) int64 {
	lease := AcquireEventually(ctx, t, l, "fenced", 10*time.Second, true)
	if lease.Token == "" {
		t.FailNow()
	}
	for {
		err := l.Release(ctx, lease)
		if err == nil || errors.Is(err, locks.ErrNotHeld) || ctx.Err() != nil {
			return lease.Fence
		}
	}
}

// LostDiskRegressesFences is the counterpart the fence check must catch: the lone
// member of l's deployment restarted without its disk counts its fences from the
// start again.
func LostDiskRegressesFences(t *testing.T, l locks.Locker, lone topologies.Node) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var fences []int64
	for i := 0; i < 5; i++ {
		lease := AcquireEventually(ctx, t, l, "fenced", 10*time.Second, true)
		fences = append(fences, lease.Fence)
		l.Release(ctx, lease)
	}
	if err := lone.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	lease := AcquireEventually(ctx, t, l, "fenced", 10*time.Second, true)
	fences = append(fences, lease.Fence)
	if FirstNonIncreasing(fences) < 0 {
		t.Errorf("fences still increase after the only member lost its disk: %v", fences)
	}
}
