package release

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// unsafeRelease: A's TTL runs out while it is stalled before its release; B takes the
// lock; A's plain DEL then frees B's lock and C walks in beside B. The Lua release
// (delete only if the token is still ours) refuses A's release and C waits.
type unsafeRelease struct{}

type releaseVariant struct {
	lab.Variant
	plainDel bool // release by DEL whoever owns the key, instead of the Lua compare-and-delete
}

func (s unsafeRelease) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	variants := []releaseVariant{
		{variant("plain-del", "release by DEL key, whoever owns it",
			results.Violations, results.Always(results.Violations)), true},
		{variant("lua-release", "release by Lua: DEL only if GET key == token (redislock.NewSingle)",
			results.Violations, results.Holds(results.Violations)), false},
	}
	return onOneMaster(ctx, env, variants, func(ctx context.Context, topo topologies.Topology, v releaseVariant,
		t *lab.Trial) error {
		return s.trial(ctx, topo.Masters()[0].Addr(), v, t, p.Duration("ttl"))
	})
}

func (s unsafeRelease) trial(ctx context.Context, addr string, v releaseVariant, t *lab.Trial,
	ttl time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	res := lab.NewResource("resource", false, t.Rec)
	clients, closeAll, err := threeClients(ctx, addr, t.Rec, func(_ string, l locks.Locker) locks.Locker {
		if v.plainDel {
			return newUnsafeDelRelease(l, addr)
		}
		return l
	})
	if err != nil {
		return err
	}
	defer closeAll()
	a, b, c := clients[0], clients[1], clients[2]

	leaseA, err := workDone(ctx, a, res, t.Key, ttl)
	if err != nil {
		return err
	}
	heal, err := nemesis.Inject(ctx, "client-pause", nemesis.Target{Client: a, Duration: 2 * ttl, Recorder: t.Rec})
	if err != nil {
		return lab.Failed("nemesis", err)
	}
	defer heal(context.Background())

	// B holds with a long TTL, so only a wrong release can free its key early; it
	// stays inside until C has had its chance.
	cDone := make(chan struct{})
	bGranted := make(chan time.Time, 1)
	bErr := make(chan error, 1)
	go func() {
		leaseB, err := b.AcquireUntil(ctx, t.Key, 30*time.Second, 5*time.Millisecond)
		if err != nil {
			bErr <- lab.Failed("second-acquire", err)
			return
		}
		bGranted <- time.Now()
		b.Work(ctx, res, leaseB, func() { lab.Until(ctx, cDone) })
		_ = b.Release(ctx, leaseB)
		bErr <- nil
	}()

	// A's release waits at its checkpoint until the pause ends, long after its TTL.
	err = a.Release(ctx, leaseA)
	released := time.Now()
	if err != nil && !errors.Is(err, locks.ErrNotHeld) {
		close(cDone)
		<-bErr
		return lab.Failed("release", fmt.Errorf("A's release: %w", err))
	}
	// The fault is a release after the lease ran out while B holds the key.
	select {
	case at := <-bGranted:
		if !released.After(leaseA.ValidUntil) || !released.After(at) {
			close(cDone)
			<-bErr
			return lab.NoFault("A released at %v, its lease ended at %v, B was granted at %v: not a late release over B's lock",
				released.Format(time.StampMicro), leaseA.ValidUntil.Format(time.StampMicro), at.Format(time.StampMicro))
		}
		t.Prove("A released %v after its lease ended, %v after B was granted",
			released.Sub(leaseA.ValidUntil).Round(time.Millisecond), released.Sub(at).Round(time.Millisecond))
	default:
		close(cDone)
		if err := <-bErr; err != nil {
			return err
		}
		return lab.NoFault("B was not granted before A's release")
	}
	tryCtx, tryCancel := context.WithTimeout(ctx, 2*ttl)
	leaseC, err := c.AcquireUntil(tryCtx, t.Key, 30*time.Second, 5*time.Millisecond)
	tryCancel()
	if err == nil {
		c.Work(ctx, res, leaseC, func() { _ = lab.Sleep(ctx, ttl/4) }) // C's work
		_ = c.Release(ctx, leaseC)
	} else if !errors.Is(err, locks.ErrNotAcquired) && !errors.Is(err, context.DeadlineExceeded) {
		close(cDone)
		<-bErr
		return lab.Failed("third-acquire", err)
	}
	close(cDone)
	return <-bErr
}
