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

// setnxExpire: the client dies right after its first command. With SETNX then EXPIRE
// the key is left with no expiry (an orphaned lock); with SET NX PX it expires.
type setnxExpire struct{}

type setnxVariant struct {
	lab.Variant
	twoCommands bool // SETNX then EXPIRE, instead of SET NX PX
}

func (s setnxExpire) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	variants := []setnxVariant{
		{variant("setnx-then-expire", "SETNX key token, then EXPIRE key ttl; the client is killed after SETNX replied",
			results.Orphans, results.Always(results.Orphans)), true},
		{variant("set-nx-px", "SET key token NX PX ttl (redislock.NewSingle); the client is killed after SET replied",
			results.Orphans, results.Holds(results.Orphans), results.Always(results.SecondGranted)), false},
	}
	return onOneMaster(ctx, env, variants, func(ctx context.Context, topo topologies.Topology, v setnxVariant,
		t *lab.Trial) error {
		return s.trial(ctx, topo, v, t, p.Duration("ttl"))
	})
}

func (s setnxExpire) trial(ctx context.Context, topo topologies.Topology, v setnxVariant, t *lab.Trial,
	ttl time.Duration) error {
	addr := topo.Masters()[0].Addr()
	var holder *lab.Client
	crash := func(ctx context.Context) error {
		if _, err := nemesis.Inject(ctx, "client-crash", nemesis.Target{Client: holder, Recorder: t.Rec}); err != nil {
			return err
		}
		return holder.Checkpoint(ctx)
	}
	var lockerA locks.Locker = newUnsafeSetNXThenExpire(addr, crash)
	if !v.twoCommands {
		l, err := locks.AtAddrs(ctx, "single", []string{addr}, locks.Options{})
		if err != nil {
			return lab.Failed("setup", err)
		}
		lockerA = l
	}
	defer lockerA.Close()
	holder = lab.NewClient("A", lockerA, t.Rec)
	_, err := holder.Acquire(ctx, t.Key, ttl)
	if !v.twoCommands {
		if err != nil {
			return lab.FirstGrant(err)
		}
		err = crash(ctx)
	}
	if !errors.Is(err, lab.ErrCrashed) {
		return lab.Failed("first-acquire", fmt.Errorf("holder's acquire: %v, want it granted then crashed", err))
	}
	t.Prove("A crashed right after its first command replied")
	if err := lab.Sleep(ctx, 2*ttl); err != nil {
		return err
	}
	if _, err := lab.ObserveKey(ctx, t, lab.RedisKeys{}, topo, topo.Masters()[0], t.Key); err != nil {
		return err
	}
	lockerB, err := locks.AtAddrs(ctx, "single", []string{addr}, locks.Options{})
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer lockerB.Close()
	next := lab.NewClient("B", lockerB, t.Rec)
	if lease, err := next.Acquire(ctx, t.Key, ttl); err == nil {
		_ = next.Release(ctx, lease)
	} else if !errors.Is(err, locks.ErrNotAcquired) {
		return lab.Failed("second-acquire", err)
	}
	return nil
}
