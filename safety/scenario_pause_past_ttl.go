package safety

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// pausePastTTL: the holder stops (a GC pause) inside its critical section for longer
// than the TTL; B takes the expired lock; A wakes and writes with its old token. A
// watchdog in A's process pauses with it and does not help; a fenced resource rejects
// every stale write. A watchdog does help a holder that is merely slow.
type pausePastTTL struct{}

func init() { Register(pausePastTTL{}) }

func (pausePastTTL) Name() string { return "pause-past-ttl" }
func (pausePastTTL) Summary() string {
	return "the holder pauses longer than the TTL: two holders with or without a watchdog; a fenced resource rejects every stale write"
}
func (pausePastTTL) Params() []Param {
	return []Param{
		{"ttl", "300ms", "the lock's TTL"},
		{"pause", "900ms", "how long the holder stops inside its critical section"},
	}
}

type pauseVariant struct {
	*Variant
	watchdog bool
	fenced   bool
	pause    bool // false: the holder is slow (works 3 x TTL) instead of stopped
}

func (s pausePastTTL) Run(ctx context.Context, env *Env) (*Report, error) {
	ttl, err := env.Params.Duration("ttl", 300*time.Millisecond)
	if err != nil {
		return nil, err
	}
	pause, err := env.Params.Duration("pause", 900*time.Millisecond)
	if err != nil {
		return nil, err
	}
	if ttl < 30*time.Millisecond {
		return nil, &ParamError{"ttl", env.Params["ttl"], "a duration >= 30ms"}
	}
	if pause <= ttl {
		return nil, &ParamError{"pause", env.Params["pause"], "a duration longer than ttl (" + ttl.String() + ")"}
	}
	topo, err := env.start(ctx, topologies.Spec{Kind: topologies.Single})
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	addr := topo.Masters()[0].Addr()
	variants := []pauseVariant{
		{&Variant{Name: "no-watchdog", Description: "A pauses past its TTL; unfenced resource: A's stale write lands after B's", Expect: ExpectBreaks, Measure: MeasureViolations}, false, false, true},
		{&Variant{Name: "watchdog", Description: "A pauses past its TTL; its watchdog (extend every TTL/3) pauses with it; unfenced resource", Expect: ExpectBreaks, Measure: MeasureViolations}, true, false, true},
		{&Variant{Name: "no-watchdog-fenced", Description: "as no-watchdog, fenced resource (INCR token per grant): A's stale write is rejected", Expect: ExpectHolds, Measure: MeasureStaleAccepted}, false, true, true},
		{&Variant{Name: "watchdog-fenced", Description: "as watchdog, fenced resource: A's stale write is rejected", Expect: ExpectHolds, Measure: MeasureStaleAccepted}, true, true, true},
		{&Variant{Name: "watchdog-slow-work", Description: "no pause: A works 3 x TTL while its watchdog keeps extending; B waits", Expect: ExpectHolds, Measure: MeasureViolations}, true, false, false},
	}
	return runTrials(s, env, variants, func(v pauseVariant, trial int) error {
		return s.trial(ctx, env, addr, v, trial, ttl, pause)
	})
}

func (s pausePastTTL) trial(ctx context.Context, env *Env, addr string, v pauseVariant, trial int, ttl, pause time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	rec := NewRecorder()
	res := NewResource("resource", v.fenced, rec)
	key := fmt.Sprintf("pause-past-ttl:%s:%d:%d", v.Name, env.Seed, trial)
	newClient := func(id string) (*Client, func(), error) {
		l, err := locks.NewSingle(ctx, addr, locks.RedisOptions{})
		if err != nil {
			return nil, nil, err
		}
		f := &fencedLocker{Locker: l, counter: plainClient(addr)}
		return NewClient(id, f, rec), func() { f.Close() }, nil
	}
	a, closeA, err := newClient("A")
	if err != nil {
		return err
	}
	defer closeA()
	b, closeB, err := newClient("B")
	if err != nil {
		return err
	}
	defer closeB()

	leaseA, err := a.Acquire(ctx, key, ttl)
	if err != nil {
		return fmt.Errorf("A's acquire: %w", err)
	}
	stopWatchdog := func() {}
	if v.watchdog {
		stopWatchdog = a.Watchdog(ctx, leaseA, ttl)
	}
	defer stopWatchdog()
	if err := a.Enter(ctx, res, leaseA); err != nil {
		return err
	}

	work := 3 * ttl
	if v.pause {
		work = pause
		heal, err := inject(ctx, "client-pause", Target{Client: a, Duration: pause, Recorder: rec})
		if err != nil {
			return err
		}
		defer heal(context.Background())
	}
	// B tries for as long as A is away, and stays inside until A has written.
	aWrote := make(chan struct{})
	bDone := make(chan error, 1)
	go func() {
		tryCtx, cancel := context.WithTimeout(ctx, work)
		leaseB, err := b.AcquireUntil(tryCtx, key, 10*ttl, 10*time.Millisecond)
		cancel()
		if err != nil {
			bDone <- nil // never got in: A kept the lock
			return
		}
		_ = b.Enter(ctx, res, leaseB)
		b.Write(ctx, res, leaseB)
		select {
		case <-aWrote:
		case <-ctx.Done():
		}
		b.Leave(res, leaseB)
		_ = b.Release(ctx, leaseB)
		bDone <- nil
	}()
	if !v.pause {
		_ = sleep(ctx, work) // slow work, not a stop: the watchdog keeps running
	}
	// A's write waits at its checkpoint until the pause ends.
	if _, err := a.Write(ctx, res, leaseA); err != nil {
		close(aWrote)
		return err
	}
	close(aWrote)
	a.Leave(res, leaseA)
	stopWatchdog()
	stopWatchdog = func() {}
	_ = a.Release(ctx, leaseA)
	<-bDone
	_, err = env.judgeTrial(s.Name(), v.Variant, trial, nil, rec.History())
	return err
}
