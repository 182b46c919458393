package safety

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// grantEvent is the clock event fired right after A's lock is granted: jumps that
// wait for it happen while A holds the lock.
const grantEvent = "grant"

// clockRace is one trial shape shared by the clock scenarios: A takes the lock, the
// skewed nodes' clocks do what their models say, and B keeps trying until A's
// validity ends. A works until its validity ends, as a correct Redlock client would;
// B entering before that is two holders.
type clockRace struct {
	strategy string // "redlock" or "single"
	ttl      time.Duration
	drift    float64        // redlock only; 0 means redsync's default
	clocks   []clocks.Model // one per master, index = node
	// unreachable nodes are down while A locks and come back empty right after the
	// grant, so that A holds only the others (Kleppmann's sequence).
	unreachable []int
}

// clockTrial is what one trial measured, beside the history's verdict.
type clockTrial struct {
	verdict   Verdict
	bGranted  bool
	aElapsed  time.Duration // A's acquire, start to return
	bAttempt  time.Duration // B's last attempt, start to return
	aValidFor time.Duration // A's validity as redsync computed it, from the grant
}

func (r clockRace) spec() topologies.Spec {
	spec := topologies.Spec{Kind: topologies.Single}
	if r.strategy == "redlock" {
		spec = topologies.Spec{Kind: topologies.Redlock, Masters: len(r.clocks)}
	}
	spec.Clocks = map[string]clocks.Model{}
	for i, m := range r.clocks {
		if !m.IsTrue() {
			spec.Clocks[fmt.Sprintf("master-%d", i)] = m
		}
	}
	return spec
}

func (r clockRace) locker(ctx context.Context, topo topologies.Topology) (locks.Locker, error) {
	if r.strategy == "redlock" {
		return locks.NewRedlock(ctx, topologies.Addrs(topo.Masters()), locks.RedlockOptions{DriftFactor: r.drift})
	}
	return locks.NewSingle(ctx, topo.Masters()[0].Addr(), locks.RedisOptions{})
}

// predict is the analytic outcome for this race with the measured timings.
func (r clockRace) predict(aElapsed, bAttempt time.Duration) clocks.RaceOutcome {
	held := make([]bool, len(r.clocks))
	for i := range held {
		held[i] = true
	}
	for _, i := range r.unreachable {
		held[i] = false
	}
	tls := clocks.Timelines(r.clocks)
	for _, tl := range tls {
		tl.Fire(grantEvent, aElapsed)
	}
	race := clocks.RedlockRace{TTL: r.ttl, Drift: r.drift, Nodes: tls, Held: held, SetDelay: aElapsed / 2, Challenge: bAttempt}
	if r.strategy == "single" {
		// One node, quorum 1, and a validity of the whole TTL: no drift allowance.
		race.Drift = 1e-12
	}
	return race.Outcome()
}

// run plays one trial on a fresh topology, so that no clock offset carries over.
func (r clockRace) run(ctx context.Context, env *Env, key string) (clockTrial, error) {
	var out clockTrial
	ctx, cancel := context.WithTimeout(ctx, time.Minute+3*r.ttl)
	defer cancel()
	topo, err := env.start(ctx, r.spec())
	if err != nil {
		return out, err
	}
	defer topo.Close()
	nodes := topo.Masters()
	rec := NewRecorder()
	res := NewResource("resource", false, rec)
	la, err := r.locker(ctx, topo)
	if err != nil {
		return out, err
	}
	defer la.Close()
	lb, err := r.locker(ctx, topo)
	if err != nil {
		return out, err
	}
	defer lb.Close()
	a, b := NewClient("A", la, rec), NewClient("B", lb, rec)

	down := pick(nodes, r.unreachable)
	if len(down) > 0 {
		if _, err := inject(ctx, "node-kill", Target{Nodes: down, Recorder: rec}); err != nil {
			return out, err
		}
	}
	started := time.Now()
	lease, err := a.Acquire(ctx, key, r.ttl)
	if err != nil {
		return out, fmt.Errorf("A's acquire: %w", err)
	}
	out.aElapsed = time.Since(started)
	out.aValidFor = time.Until(lease.ValidUntil)
	topologies.FireClockEvent(topo, grantEvent)
	rec.Record(Event{Client: "nemesis", Kind: FaultInjected, Detail: "clock event " + grantEvent + ": " + topo.Spec().ClockSummary()})
	if err := a.Enter(ctx, res, lease); err != nil {
		return out, err
	}
	if len(down) > 0 {
		if _, err := inject(ctx, "node-restart-empty", Target{Nodes: down, Recorder: rec}); err != nil {
			return out, err
		}
	}

	// A works until its validity ends and stops then, whatever B does. Its leaving is
	// recorded at ValidUntil itself: the race is with A's belief, not with how late a
	// sleeping goroutine wakes on a busy machine.
	aDone := make(chan struct{})
	go func() {
		defer close(aDone)
		_ = sleep(ctx, time.Until(lease.ValidUntil)-time.Millisecond)
		_, _ = a.Write(ctx, res, lease)
		_ = sleep(ctx, time.Until(lease.ValidUntil))
		rec.Record(Event{Time: lease.ValidUntil, Client: a.ID, Kind: Left, Key: lease.Key, Resource: res.Name()})
	}()

	// B tries until A's validity ends: coarsely at first, every millisecond from a
	// little before the model says the keys could be free (the history stays small).
	predicted := r.predict(out.aElapsed, 0)
	fineFrom := started.Add(predicted.EarliestB - 30*time.Millisecond)
	if predicted.EarliestB == clocks.Never {
		fineFrom = lease.ValidUntil
	}
	tryCtx, tryCancel := context.WithDeadline(ctx, lease.ValidUntil)
	var leaseB locks.Lease
	bErr := locks.ErrNotAcquired
	for tryCtx.Err() == nil {
		t0 := time.Now()
		leaseB, bErr = b.Acquire(tryCtx, key, r.ttl)
		out.bAttempt = time.Since(t0)
		if bErr == nil || !errors.Is(bErr, locks.ErrNotAcquired) {
			break
		}
		wait := time.Millisecond
		if time.Now().Before(fineFrom) {
			wait = 20 * time.Millisecond
		}
		_ = sleep(tryCtx, wait)
	}
	tryCancel()
	if bErr == nil {
		out.bGranted = true
		_ = b.Enter(ctx, res, leaseB)
		_, _ = b.Write(ctx, res, leaseB)
	}
	<-aDone
	if out.bGranted {
		b.Leave(res, leaseB)
		_ = b.Release(ctx, leaseB)
	}
	_ = a.Release(ctx, lease)
	out.verdict, err = Judge(rec.History(), env.vizDir(), strings.NewReplacer(":", "-", "/", "-", " ", "-").Replace(key))
	return out, err
}

func pick(nodes []topologies.Node, idx []int) []topologies.Node {
	var out []topologies.Node
	for _, i := range idx {
		out = append(out, nodes[i])
	}
	return out
}

// clockPoint runs trials of one race as a variant, and notes the model's prediction
// beside what was measured.
func clockPoint(ctx context.Context, env *Env, scenario string, v *Variant, r clockRace, inputs map[string]float64) error {
	var aElapsed, bAttempt []time.Duration
	for trial := 0; trial < env.Trials; trial++ {
		key := fmt.Sprintf("%s:%s:%d:%d", scenario, v.Name, env.Seed, trial)
		t, err := r.run(ctx, env, key)
		if err != nil {
			return fmt.Errorf("%s trial %d: %w", v.Name, trial, err)
		}
		v.record(trial, inputs, t.verdict)
		if t.bGranted {
			v.SecondGranted++
		}
		aElapsed, bAttempt = append(aElapsed, t.aElapsed), append(bAttempt, t.bAttempt)
		env.logf("%s/%s trial %d: B granted %v, %d violations", scenario, v.Name, trial, t.bGranted, t.verdict.Mutex.Violations)
	}
	p := r.predict(median(aElapsed), median(bAttempt))
	say := "holds"
	if p.Violation() {
		say = fmt.Sprintf("breaks (overlap up to %v)", p.Overlap.Round(time.Microsecond))
	}
	got := "held"
	if v.TrialsWithViolation > 0 {
		got = fmt.Sprintf("broke in %d of %d trials", v.TrialsWithViolation, v.Judged)
	}
	v.Notes = appendNote(v.Notes, fmt.Sprintf("model: %s; measured: %s (A's acquire %v, B's attempt %v)", say, got,
		median(aElapsed).Round(time.Microsecond), median(bAttempt).Round(time.Microsecond)))
	return nil
}

// expectFromModel is what the model predicts for r before anything runs: holds if
// two holders are impossible even with near-instant acquires (A's taking 1 µs, its key
// set half-way, B's attempt taking no time); breaks if, with nominal acquire times, the
// overlap exceeds guard; otherwise timing noise decides and the point is a measurement.
func expectFromModel(r clockRace, guard time.Duration) Expectation {
	if !r.predict(time.Microsecond, 0).Violation() {
		return ExpectHolds
	}
	if p := r.predict(nominalAcquire, nominalAttempt); p.Violation() && p.Overlap > guard {
		return ExpectBreaks
	}
	return ExpectMeasured
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// ints reads a comma-separated list of integers within [min, max].
func ints(p Params, name string, def []int, min, max int) ([]int, error) {
	v, ok := p[name]
	if !ok {
		return def, nil
	}
	var out []int
	for _, part := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < min || n > max {
			return nil, &ParamError{name, v, fmt.Sprintf("a comma-separated list of integers from %d to %d", min, max)}
		}
		out = append(out, n)
	}
	return out, nil
}

// floats reads a comma-separated list of numbers within [min, max].
func floats(p Params, name string, def []float64, min, max float64) ([]float64, error) {
	v, ok := p[name]
	if !ok {
		return def, nil
	}
	var out []float64
	for _, part := range strings.Split(v, ",") {
		f, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil || f < min || f > max {
			return nil, &ParamError{name, v, fmt.Sprintf("a comma-separated list of numbers from %g to %g", min, max)}
		}
		out = append(out, f)
	}
	return out, nil
}
