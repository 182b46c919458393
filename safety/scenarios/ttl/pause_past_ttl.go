package ttl

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// pausePastTTL: the holder stops (a GC pause) inside its critical section for longer
// than its lease; B takes the expired lock; A wakes and writes with its old token. A
// watchdog in A's process pauses with it and does not help; a fenced resource rejects
// every stale write. A watchdog does help a holder that is merely slow. It runs on any
// store: on etcd too the holder cannot know it was paused (as Jepsen found for etcd
// 3.4.3), and the lock key's create revision is the fence. Its boundary mode checks the
// pause model itself: stops just below and just above the lease left (pause_boundary.go).
type pausePastTTL struct{}

// pausable is a store whose holder stops whole when the lab pauses it: its client
// extends nothing on its own.
func pausable(st lab.Store) bool { return !locks.Has(st.Strategy(), locks.ExtendsItself) }

type pauseVariant struct {
	lab.Variant
	store    lab.Store
	watchdog bool      // A extends every TTL/3 from a goroutine of its own process
	fenced   bool      // the resource refuses a fence not above the highest it accepted
	stops    bool      // A stops (a pause); false: A is only slow, working 3 x TTL
	boundary *stopSize // boundary mode: the stop is sized on the lease left; nil: on the TTL
}

func (s pausePastTTL) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	ttl, factor := p.Duration("ttl"), p.Float("pause-factor")
	if p.String("mode") == boundaryMode && p.Duration("pause-at") >= ttl {
		return nil, &lab.ParamError{Name: "pause-at", Value: p.Duration("pause-at").String(), Want: "a duration shorter " +
			"than ttl (" + ttl.String() + "): A must stop inside its lease"}
	}
	rep := env.NewReport()
	for _, st := range p.Stores("strategies") {
		variants := s.variants(st)
		if p.String("mode") == boundaryMode {
			variants = boundaryVariants(st, ttl, p.Floats("boundary-factors"), p.Duration("pause-at"))
		}
		part, err := s.runStore(ctx, env, st, variants, ttl, factor, p.Int("parallel"))
		if err != nil {
			return nil, err
		}
		rep.Variants = append(rep.Variants, part.Variants...)
	}
	return rep, nil
}

func (s pausePastTTL) variants(st lab.Store) []pauseVariant {
	name := st.Strategy()
	v := func(suffix, what string, claims ...results.Claim) lab.Variant {
		return lab.Variant{Variant: &results.Variant{Name: name + "/" + suffix, Measure: claims[0].Measure, Claims: claims,
			Params:      map[string]string{"strategy": name, "fence": st.FenceSource()},
			Description: fmt.Sprintf("%s: %s", name, what)}}
	}
	return []pauseVariant{
		{v("no-watchdog", "A pauses past its lease; unfenced resource: A's stale write lands after B's",
			results.Always(results.Violations), results.Always(results.StaleAccepted)), st, false, false, true, nil},
		{v("watchdog", "A pauses past its lease; its watchdog (extend every TTL/3) pauses with it; unfenced resource",
			results.Always(results.Violations), results.Always(results.StaleAccepted)), st, true, false, true, nil},
		{v("no-watchdog-fenced", "as no-watchdog, the resource checks the fence ("+st.FenceSource()+"): A's stale write is "+
			"rejected",
			results.Holds(results.StaleAccepted), results.Always(results.StaleRejected)), st, false, true, true, nil},
		{v("watchdog-fenced", "as watchdog, fenced resource: A's stale write is rejected",
			results.Holds(results.StaleAccepted), results.Always(results.StaleRejected)), st, true, true, true, nil},
		{v("watchdog-slow-work", "no pause: A works 3 x its lease while its watchdog keeps extending; B waits",
			results.Holds(results.Violations)), st, true, false, false, nil},
	}
}

func (s pausePastTTL) runStore(ctx context.Context, env *lab.Env, st lab.Store, variants []pauseVariant,
	ttl time.Duration, factor float64, parallel int) (*results.Report, error) {
	topo, err := env.StartTopology(ctx, st.Spec())
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	return lab.RunTrialsAtOnce(ctx, env, variants, parallel,
		func(ctx context.Context, v pauseVariant, t *lab.Trial) error {
			return s.trial(ctx, topo, v, t, ttl, factor)
		})
}

func (s pausePastTTL) trial(ctx context.Context, topo topologies.Topology, v pauseVariant, t *lab.Trial,
	ttl time.Duration, factor float64) error {
	granted := v.store.GrantedTTL(ttl)
	pause := time.Duration(factor * float64(granted))
	if v.boundary != nil {
		pause = time.Duration(v.boundary.factor * float64(granted)) // the bound; the pause itself is sized on the lease left
	}
	ctx, cancel := context.WithTimeout(ctx, 3*pause+30*time.Second)
	defer cancel()
	res := lab.NewResource("resource", v.fenced, t.Rec)
	newClient := func(id string) (*lab.Client, func(), error) {
		l, err := v.store.Locker(ctx, topo, true)
		if err != nil {
			return nil, nil, lab.Failed("setup", fmt.Errorf("client %s: %w", id, err))
		}
		return lab.NewClient(id, l, t.Rec), func() { l.Close() }, nil
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

	grantA, err := lab.AcquireAlone(ctx, a, t.Key, ttl, 100*time.Millisecond)
	if err != nil {
		return lab.FirstGrant(err)
	}
	leaseA := grantA.Lease
	t.Input("granted_ttl_ms", lab.Millis(leaseA.ValidUntil.Sub(leaseA.Start)))
	stopWatchdog := func() {}
	if v.watchdog {
		stopWatchdog = a.Watchdog(ctx, leaseA, ttl)
	}
	defer func() { stopWatchdog() }()
	if err := a.Enter(ctx, res, leaseA); err != nil {
		return err
	}
	work := 3 * granted
	if v.boundary != nil {
		if pause, err = v.boundary.stopInsideLease(ctx, t, leaseA); err != nil {
			return err
		}
	}
	if v.stops {
		work = pause
		heal, err := nemesis.Inject(ctx, "client-pause", nemesis.Target{Client: a, Duration: pause, Recorder: t.Rec})
		if err != nil {
			return lab.Failed("nemesis", err)
		}
		defer heal(context.Background())
	}
	// B tries for as long as A is away, and stays inside until A has written.
	aWrote := make(chan struct{})
	bDone := make(chan error, 1)
	bGranted := false // read once bDone has answered
	go func() {
		tryCtx, cancel := context.WithTimeout(ctx, work)
		leaseB, err := b.AcquireUntil(tryCtx, t.Key, 10*ttl, 10*time.Millisecond)
		cancel()
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
				bDone <- nil // refused for as long as A was away: A kept the lock
			} else {
				bDone <- lab.Failed("second-acquire", err)
			}
			return
		}
		bGranted = true
		b.Work(ctx, res, leaseB, func() { lab.Until(ctx, aWrote) })
		_ = b.Release(ctx, leaseB)
		bDone <- nil
	}()
	if !v.stops {
		_ = lab.Sleep(ctx, work) // slow work, not a stop: the watchdog keeps running
	}
	// A's write waits at its checkpoint until the pause ends.
	_, err = a.Write(ctx, res, leaseA)
	close(aWrote)
	if err != nil {
		<-bDone
		return err
	}
	a.Leave(res, leaseA)
	stopWatchdog()
	stopWatchdog = func() {}
	_ = a.Release(ctx, leaseA)
	if err := <-bDone; err != nil {
		return err
	}
	if v.boundary != nil {
		if err := v.boundary.prove(t, leaseA, pause); err != nil {
			return err
		}
		return v.boundary.bTookIt(bGranted && enteredBeforeWrite(t.Rec.History(), "B"))
	}
	return provePause(t, leaseA, v.stops)
}

// awayAtResource reads, at the resource, when A entered and when it wrote.
func awayAtResource(t *lab.Trial) (entered, wrote time.Time, err error) {
	events := t.Rec.History()
	entered, wrote = firstAtResource(events, "A", history.Entered), firstAtResource(events, "A", history.Write)
	if entered.IsZero() || wrote.IsZero() {
		return entered, wrote, lab.Failed("record", errors.New("A's entry or write is missing from the history"))
	}
	return entered, wrote, nil
}

// firstAtResource is when client first did kind at the resource, zero if never.
func firstAtResource(events []history.Event, client string, kind history.Kind) time.Time {
	for _, e := range events {
		if e.Client == client && e.Kind == kind && e.Resource != "" {
			return e.Time
		}
	}
	return time.Time{}
}

// provePause reads, at the resource, how long A was away between entering and its
// write: a pause must outlast the lease A was granted (a slow holder must outlast it
// too, or the watchdog was never needed).
func provePause(t *lab.Trial, lease locks.Lease, stopped bool) error {
	entered, wrote, err := awayAtResource(t)
	if err != nil {
		return err
	}
	away, leaseLeft := wrote.Sub(entered), lease.ValidUntil.Sub(entered)
	t.Input("away_ms", lab.Millis(away))
	if away <= leaseLeft {
		return lab.NoFault("A was away %v, within the %v left of its lease", away.Round(time.Millisecond),
			leaseLeft.Round(time.Millisecond))
	}
	what := "stopped"
	if !stopped {
		what = "worked slowly"
	}
	t.Prove("A %s %v at the resource, %v past its lease (granted %v)", what, away.Round(time.Millisecond),
		(away - leaseLeft).Round(time.Millisecond), lease.ValidUntil.Sub(lease.Start).Round(time.Millisecond))
	return nil
}
