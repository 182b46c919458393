package safety

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// setnxExpire: the client dies right after its first command. With SETNX then EXPIRE
// the key is left with no expiry (an orphaned lock); with SET NX PX it expires.
type setnxExpire struct{}

func init() { Register(setnxExpire{}) }

func (setnxExpire) Name() string { return "setnx-expire" }
func (setnxExpire) Summary() string {
	return "the holder dies between SETNX and EXPIRE: the lock is orphaned; SET NX PX is one command and expires"
}
func (setnxExpire) Params() []Param {
	return []Param{{"ttl", "200ms", "the lock's TTL; the second client tries after twice this"}}
}

func (s setnxExpire) Run(ctx context.Context, env *Env) (*Report, error) {
	ttl, err := env.Params.Duration("ttl", 200*time.Millisecond)
	if err != nil {
		return nil, err
	}
	if ttl < time.Millisecond {
		return nil, &ParamError{"ttl", env.Params["ttl"], "a duration >= 1ms"}
	}
	topo, err := env.start(ctx, topologies.Spec{Kind: topologies.Single})
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	addr := topo.Masters()[0].Addr()
	variants := []*Variant{
		{Name: "setnx-then-expire", Description: "SETNX key token, then EXPIRE key ttl; the client is killed after SETNX replied", Expect: ExpectBreaks, Measure: MeasureOrphans},
		{Name: "set-nx-px", Description: "SET key token NX PX ttl (locks.NewSingle); the client is killed after SET replied", Expect: ExpectHolds, Measure: MeasureOrphans},
	}
	return runTrials(s, env, variants, func(v *Variant, trial int) error {
		return s.trial(ctx, env, addr, v, trial, ttl)
	})
}

func (s setnxExpire) trial(ctx context.Context, env *Env, addr string, v *Variant, trial int, ttl time.Duration) error {
	rec := NewRecorder()
	key := fmt.Sprintf("setnx-expire:%s:%d:%d", v.Name, env.Seed, trial)
	var holder *Client
	crash := func(ctx context.Context) error {
		if _, err := inject(ctx, "client-crash", Target{Client: holder, Recorder: rec}); err != nil {
			return err
		}
		return holder.Checkpoint(ctx)
	}
	var lockerA locks.Locker
	if v.Name == "setnx-then-expire" {
		lockerA = newUnsafeSetNXThenExpire(addr, crash)
	} else {
		l, err := locks.NewSingle(ctx, addr, locks.RedisOptions{})
		if err != nil {
			return err
		}
		lockerA = l
	}
	defer lockerA.Close()
	holder = NewClient("A", lockerA, rec)
	_, err := holder.Acquire(ctx, key, ttl)
	switch {
	case v.Name == "set-nx-px" && err == nil:
		if err := crash(ctx); !errors.Is(err, ErrCrashed) {
			return fmt.Errorf("crash after SET: %v", err)
		}
	case !errors.Is(err, ErrCrashed):
		return fmt.Errorf("holder's acquire: %v, want it granted then crashed", err)
	}
	if err := sleep(ctx, 2*ttl); err != nil {
		return err
	}
	if err := observeKey(ctx, rec, addr, key); err != nil {
		return err
	}
	lockerB, err := locks.NewSingle(ctx, addr, locks.RedisOptions{})
	if err != nil {
		return err
	}
	defer lockerB.Close()
	next := NewClient("B", lockerB, rec)
	if lease, err := next.Acquire(ctx, key, ttl); err == nil {
		_ = next.Release(ctx, lease)
	} else if !errors.Is(err, locks.ErrNotAcquired) {
		return err
	}
	_, err = env.judgeTrial(s.Name(), v, trial, nil, rec.History())
	return err
}
