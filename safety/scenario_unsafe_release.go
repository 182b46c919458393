package safety

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// unsafeRelease: A's TTL runs out while it is stalled before its release; B takes the
// lock; A's plain DEL then frees B's lock and C walks in beside B. The Lua release
// (delete only if the token is still ours) refuses A's release and C waits.
type unsafeRelease struct{}

func init() { Register(unsafeRelease{}) }

func (unsafeRelease) Name() string { return "unsafe-release" }
func (unsafeRelease) Summary() string {
	return "a release by plain DEL after the TTL ran out frees the next holder's lock: two holders; the Lua release fixes it"
}
func (unsafeRelease) Params() []Param {
	return []Param{{"ttl", "300ms", "A's TTL; A stalls for twice this between its work and its release"}}
}

func (s unsafeRelease) Run(ctx context.Context, env *Env) (*Report, error) {
	ttl, err := env.Params.Duration("ttl", 300*time.Millisecond)
	if err != nil {
		return nil, err
	}
	if ttl < 10*time.Millisecond {
		return nil, &ParamError{"ttl", env.Params["ttl"], "a duration >= 10ms"}
	}
	topo, err := env.start(ctx, topologies.Spec{Kind: topologies.Single})
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	addr := topo.Masters()[0].Addr()
	variants := []*Variant{
		{Name: "plain-del", Description: "release by DEL key, whoever owns it", Expect: ExpectBreaks, Measure: MeasureViolations},
		{Name: "lua-release", Description: "release by Lua: DEL only if GET key == token (locks.NewSingle)", Expect: ExpectHolds, Measure: MeasureViolations},
	}
	return runTrials(s, env, variants, func(v *Variant, trial int) error {
		return s.trial(ctx, env, addr, v, trial, ttl)
	})
}

func (s unsafeRelease) trial(ctx context.Context, env *Env, addr string, v *Variant, trial int, ttl time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	rec := NewRecorder()
	res := NewResource("resource", false, rec)
	key := fmt.Sprintf("unsafe-release:%s:%d:%d", v.Name, env.Seed, trial)
	newLocker := func() (locks.Locker, error) {
		l, err := locks.NewSingle(ctx, addr, locks.RedisOptions{})
		if err != nil || v.Name == "lua-release" {
			return l, err
		}
		return newUnsafeDelRelease(l, addr), nil
	}
	var clients []*Client
	for _, id := range []string{"A", "B", "C"} {
		l, err := newLocker()
		if err != nil {
			return err
		}
		defer l.Close()
		clients = append(clients, NewClient(id, l, rec))
	}
	a, b, c := clients[0], clients[1], clients[2]

	leaseA, err := a.Acquire(ctx, key, ttl)
	if err != nil {
		return fmt.Errorf("A's acquire: %w", err)
	}
	if err := a.Enter(ctx, res, leaseA); err != nil {
		return err
	}
	a.Write(ctx, res, leaseA)
	a.Leave(res, leaseA)
	heal, err := inject(ctx, "client-pause", Target{Client: a, Duration: 2 * ttl, Recorder: rec})
	if err != nil {
		return err
	}
	defer heal(context.Background())

	// B holds with a long TTL, so only a wrong release can free its key early; it
	// stays inside until C has had its chance.
	cDone := make(chan struct{})
	bErr := make(chan error, 1)
	go func() {
		leaseB, err := b.AcquireUntil(ctx, key, 30*time.Second, 5*time.Millisecond)
		if err != nil {
			bErr <- fmt.Errorf("B's acquire: %w", err)
			return
		}
		_ = b.Enter(ctx, res, leaseB)
		b.Write(ctx, res, leaseB)
		select {
		case <-cDone:
		case <-ctx.Done():
		}
		b.Leave(res, leaseB)
		_ = b.Release(ctx, leaseB)
		bErr <- nil
	}()

	// A's release waits at its checkpoint until the pause ends, long after its TTL.
	if err := a.Release(ctx, leaseA); err != nil && !errors.Is(err, locks.ErrNotHeld) {
		close(cDone)
		<-bErr
		return fmt.Errorf("A's release: %w", err)
	}
	tryCtx, tryCancel := context.WithTimeout(ctx, 2*ttl)
	leaseC, err := c.AcquireUntil(tryCtx, key, 30*time.Second, 5*time.Millisecond)
	tryCancel()
	if err == nil {
		_ = c.Enter(ctx, res, leaseC)
		c.Write(ctx, res, leaseC)
		_ = sleep(ctx, ttl/4) // C's work
		c.Leave(res, leaseC)
		_ = c.Release(ctx, leaseC)
	}
	close(cDone)
	if err := <-bErr; err != nil {
		return err
	}
	_, err = env.judgeTrial(s.Name(), v, trial, nil, rec.History())
	return err
}
