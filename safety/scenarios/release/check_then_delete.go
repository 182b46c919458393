package release

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// checkThenDelete: the write-up's step 2. A release that GETs the key, compares the
// token in the client and then DELs is not atomic: a TTL that runs out between the
// two commands lets the DEL remove the next holder's lock, and a third client walks in
// beside it. Measured with a pause injected between the GET and the DEL, and at its
// natural rate under load (many clients, short TTL, holds ending near the TTL); the
// Lua compare-and-delete of redislock.NewSingle runs beside each.
type checkThenDelete struct{}

type checkThenDeleteVariant struct {
	lab.Variant
	getThenDel bool // release by GET, compare in the client, DEL; false: the Lua release
	underLoad  bool // many clients at their natural rate; false: one pause between GET and DEL
}

func (s checkThenDelete) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	variants := []checkThenDeleteVariant{
		{variant("get-then-del/pause", "A's check (GET) sees its token; A stops 2 x TTL before its DEL; B takes the expired "+
			"key; A's DEL removes B's lock and C walks in beside B",
			results.ForeignDeletes, results.Always(results.ForeignDeletes), results.Always(results.Violations),
			results.Always(results.CutShort)), true, false},
		{variant("lua/pause", "A stops 2 x TTL at the same point, then releases by Lua (DEL only if GET == token, one "+
			"server-side step): B keeps its lock, C waits",
			results.Violations, results.Holds(results.Violations), results.Holds(results.CutShort)), false, false},
		// Both load variants count locks cut short, from the holder's side, so that the
		// claim compares the Lua release with GET-compare-DEL on one measure.
		{variant("get-then-del/load", "clients contend, each holding until a random instant in the last load-window of "+
			"its TTL, then releasing by GET, compare, DEL: the DELs that removed another owner's key, and the holders who "+
			"found their key gone or another's before their lease could expire",
			results.ForeignDeletes, results.Breaks(results.ForeignDeletes), results.Breaks(results.CutShort)), true, true},
		{variant("lua/load",
			"the same load, released by Lua: no holder ever finds its key removed before its lease could expire",
			results.CutShort, results.Holds(results.CutShort)), false, true},
	}
	for _, v := range variants {
		v.Natural = v.underLoad // the scheduler, not a pause, runs the TTL out between check and DEL
	}
	load := loadShape{ttl: p.Duration("load-ttl"), window: p.Duration("load-window"), clients: p.Int("clients"),
		length: p.Duration("load")}
	return onOneMaster(ctx, env, variants, func(ctx context.Context, topo topologies.Topology, v checkThenDeleteVariant,
		t *lab.Trial) error {
		addr := topo.Masters()[0].Addr()
		if v.underLoad {
			return releaseUnderLoad(ctx, addr, v.getThenDel, load, t)
		}
		return s.pauseTrial(ctx, addr, v, t, p.Duration("ttl"))
	})
}

// pauseTrial: A releases while its lease is still valid and stops between the check
// and the DEL (or, Lua, before its one step) for twice its TTL; B holds meanwhile.
func (s checkThenDelete) pauseTrial(ctx context.Context, addr string, v checkThenDeleteVariant, t *lab.Trial,
	ttl time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	res := lab.NewResource("resource", false, t.Rec)
	var (
		mu      sync.Mutex
		checked time.Time // when A's GET answered with its own token
		removed []string  // what each DEL of A removed
	)
	clients, closeAll, err := threeClients(ctx, addr, t.Rec, func(id string, l locks.Locker) locks.Locker {
		if !v.getThenDel {
			return l
		}
		g := newGetThenDelRelease(l, addr)
		if id == "A" {
			g.deleted = func(_ locks.Lease, at time.Time, r string) {
				mu.Lock()
				defer mu.Unlock()
				checked, removed = at, append(removed, r)
			}
		}
		return g
	})
	if err != nil {
		return err
	}
	defer closeAll()
	a, b, c := clients[0], clients[1], clients[2]
	pauseA := func(ctx context.Context) error {
		heal, err := nemesis.Inject(ctx, "client-pause", nemesis.Target{Client: a, Duration: 2 * ttl, Recorder: t.Rec})
		if err != nil {
			return lab.Failed("nemesis", err)
		}
		defer heal(context.Background())
		return a.Checkpoint(ctx) // A's process stands still here until the pause ends
	}
	if g, ok := a.Locker.(*getThenDelRelease); ok {
		g.between = pauseA
	}

	leaseA, err := workDone(ctx, a, res, t.Key, ttl)
	if err != nil {
		return err
	}

	// B holds with a long TTL, so that only a wrong release frees its key early.
	cDone := make(chan struct{})
	bLease := make(chan locks.Lease, 1)
	bErr := make(chan error, 1)
	go func() {
		leaseB, err := b.AcquireUntil(ctx, t.Key, 30*time.Second, time.Millisecond)
		if err != nil {
			bErr <- lab.Failed("second-acquire", err)
			return
		}
		bLease <- leaseB
		b.Work(ctx, res, leaseB, func() { lab.Until(ctx, cDone) })
		err = b.Release(ctx, leaseB)
		switch {
		case errors.Is(err, locks.ErrNotHeld) && time.Now().Before(leaseB.ValidUntil):
			t.Count(results.CutShort, 1) // B's key was gone long before its 30 s could run out
		case err != nil && !errors.Is(err, locks.ErrNotHeld):
			bErr <- lab.Failed("release", fmt.Errorf("B's release: %w", err))
			return
		default:
			t.Count(results.CutShort, 0)
		}
		bErr <- nil
	}()
	stopB := func() error { close(cDone); return <-bErr }

	if !v.getThenDel {
		if err := pauseA(ctx); err != nil {
			stopB()
			return err
		}
	}
	releaseErr := a.Release(ctx, leaseA)
	released := time.Now()
	if releaseErr != nil && !errors.Is(releaseErr, locks.ErrNotHeld) {
		stopB()
		return lab.Failed("release", fmt.Errorf("A's release: %w", releaseErr))
	}
	var leaseB locks.Lease
	select {
	case leaseB = <-bLease:
	default:
		if err := stopB(); err != nil {
			return err
		}
		return lab.NoFault("B was not granted before A's release came back")
	}
	if err := proveLateRelease(t, v.getThenDel, leaseA, leaseB, released, checked, removed); err != nil {
		stopB()
		return err
	}
	// C tries while B still holds: only a freed key lets it in.
	tryCtx, tryCancel := context.WithTimeout(ctx, 2*ttl)
	leaseC, err := c.AcquireUntil(tryCtx, t.Key, 30*time.Second, time.Millisecond)
	tryCancel()
	switch {
	case err == nil:
		c.Work(ctx, res, leaseC, func() { _ = lab.Sleep(ctx, ttl/4) }) // C's work, beside B
		_ = c.Release(ctx, leaseC)
	case !errors.Is(err, locks.ErrNotAcquired) && !errors.Is(err, context.DeadlineExceeded):
		stopB()
		return lab.Failed("third-acquire", err)
	}
	return stopB()
}

// proveLateRelease: the fault is A's release reaching the server after its lease ended
// and after B was granted. GET-then-DEL: A's check read its own token before its lease
// ended, and its DEL's own answer names whose key it removed.
func proveLateRelease(t *lab.Trial, getThenDel bool, leaseA, leaseB locks.Lease, released, checked time.Time,
	removed []string) error {
	if !getThenDel {
		if !released.After(leaseA.ValidUntil) || !leaseB.Start.Before(released) {
			return lab.NoFault(
				"A's release came back at %v, its lease ended at %v, B asked at %v: not a late release over B's lock",
				released.Format(time.StampMicro), leaseA.ValidUntil.Format(time.StampMicro), leaseB.Start.Format(time.StampMicro))
		}
		t.Prove("A's Lua release came back %v after its lease ended, %v after B was granted",
			released.Sub(leaseA.ValidUntil).Round(time.Millisecond), released.Sub(leaseB.Start).Round(time.Millisecond))
		return nil
	}
	if len(removed) == 0 || checked.IsZero() {
		return lab.NoFault("A's check did not pass (its key was already gone): no DEL was sent")
	}
	if !checked.Before(leaseA.ValidUntil) {
		return lab.NoFault("A's check answered %v after its lease ended", checked.Sub(leaseA.ValidUntil))
	}
	if removed[0] != leaseB.Token {
		return lab.NoFault("A's DEL removed %q, not B's token %s (B was granted only after it)", removed[0], leaseB.Token)
	}
	t.Count(results.ForeignDeletes, len(removed))
	t.Prove("A's GET answered its own token %v before its lease ended; its DEL (GETDEL) removed B's token %s, %v after "+
		"the check",
		leaseA.ValidUntil.Sub(checked).Round(time.Millisecond), leaseB.Token, released.Sub(checked).Round(time.Millisecond))
	return nil
}
