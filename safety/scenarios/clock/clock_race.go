package clock

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// grantEvent is the clock event fired right after A's lock is granted: jumps that
// wait for it happen while A holds the lock.
const grantEvent = "grant"

// Nominal timings for the claims set before anything runs; measured ones go in notes.
const (
	nominalAcquire = 2 * time.Millisecond
	nominalAttempt = time.Millisecond
	expectGuard    = 10 * time.Millisecond
)

// clockRace is one trial shape shared by the clock scenarios: A takes the lock, the
// skewed nodes' clocks do what their models say, and B keeps trying until A's
// validity ends. A works until its validity ends, as a correct Redlock client would;
// B entering before that is two holders.
type clockRace struct {
	client clockClient
	ttl    time.Duration
	drift  float64        // redlock only; 0 means redsync's default
	clocks []clocks.Model // one per master, index = node
	// unreachable nodes are down while A locks and come back empty right after the
	// grant, so that A holds only the others (Kleppmann's sequence).
	unreachable []int
	// hold, when above 0, is how long A works before it leaves, if sooner than its
	// validity: B's getting in before then is two holders; after, it is not.
	hold time.Duration

	// Test hooks that take the fault away while the scenario still expects it; the
	// proof must then refuse to judge. neverFire skips the grant event, so no jump
	// happens; startTrue starts every node on a true clock. shortGrants takes A's key off
	// the first reachable node after each of A's first grants, as a SET past its per-node
	// deadline would leave it.
	neverFire   bool
	startTrue   bool
	shortGrants int
}

func (r clockRace) spec() backend.Spec {
	spec := backend.Spec{Kind: topologies.Single}
	if r.redlock() {
		spec = backend.Spec{Kind: topologies.Redlock, Masters: len(r.clocks)}
	}
	spec.Clocks = map[string]clocks.Model{}
	for i, m := range r.clocks {
		if !m.IsTrue() && !r.startTrue {
			spec.Clocks[lab.NodeName(i)] = m
		}
	}
	return spec
}

// redlock is true for both Redlock clients: the one that waits for every node's answer
// and the fail-fast one that returns at a majority.
func (r clockRace) redlock() bool  { return r.client.quorum }
func (r clockRace) failFast() bool { return r.client.failFast }

// reachable are the nodes up while A locks: all but the unreachable ones.
func (r clockRace) reachable(nodes []topologies.Node) []topologies.Node {
	var up []topologies.Node
	for i, n := range nodes {
		if !slices.Contains(r.unreachable, i) {
			up = append(up, n)
		}
	}
	return up
}

func (r clockRace) locker(ctx context.Context, topo topologies.Topology) (locks.Locker, error) {
	if r.redlock() {
		return locks.AtAddrs(ctx, "redlock", topologies.Addrs(topo.Masters()),
			locks.Options{Redlock: locks.RedlockOptions{DriftFactor: r.drift, FailFast: r.failFast()}})
	}
	return locks.AtAddrs(ctx, "single", []string{topo.Masters()[0].Addr()}, locks.Options{})
}

// jumpModel is a forward (or, negative, backward) step of j at A's grant; 0 is a true clock.
func jumpModel(j time.Duration) clocks.Model {
	if j == 0 {
		return clocks.Model{}
	}
	return clocks.Model{Jumps: []clocks.Jump{{After: grantEvent, By: j}}}
}

// predict is the analytic outcome for this race with the measured timings, A's keys
// set half-way through its acquire.
func (r clockRace) predict(aElapsed, bAttempt time.Duration) clocks.RaceOutcome {
	return r.outcome(aElapsed, aElapsed/2, bAttempt)
}

// predictLatest is the outcome with A's keys set as late as they can be, at the end of
// its acquire: when a quorum is surely free, whatever a slow acquire did.
func (r clockRace) predictLatest(aElapsed time.Duration) clocks.RaceOutcome {
	return r.outcome(aElapsed, aElapsed, 0)
}

func (r clockRace) outcome(aElapsed, setDelay, bAttempt time.Duration) clocks.RaceOutcome {
	held := make([]bool, len(r.clocks))
	for i := range held {
		held[i] = !slices.Contains(r.unreachable, i)
	}
	tls := clocks.Timelines(r.clocks)
	for _, tl := range tls {
		tl.Fire(grantEvent, aElapsed)
	}
	race := clocks.RedlockRace{TTL: r.ttl, Drift: r.drift, Nodes: tls, Held: held, SetDelay: setDelay, Challenge: bAttempt}
	if r.hold > 0 {
		race.LeavesAt = aElapsed + r.hold
	}
	if !r.redlock() {
		// One node, quorum 1, and a validity of the whole TTL: no drift allowance.
		race.Drift = 1e-12
	}
	return race.Outcome()
}

// claimsFromModel is what the model predicts for r before anything runs: holds if two
// holders are impossible even with near-instant acquires (A's taking 1 µs, its key set
// half-way, B's attempt taking no time); breaks if, with nominal acquire times, the
// overlap exceeds guard; otherwise timing noise decides and the point is a measurement.
func claimsFromModel(r clockRace, guard time.Duration) []results.Claim {
	if !r.predict(time.Microsecond, 0).Violation() {
		if r.failFast() {
			return nil // the model has A on every node; fail-fast may leave it on a bare majority
		}
		return []results.Claim{results.Holds(results.Violations)}
	}
	if r.failFast() && len(r.unreachable) > 0 {
		return nil // A's SETs still in flight may land on the nodes once they are back
	}
	if p := r.predict(nominalAcquire, nominalAttempt); p.Violation() && p.Overlap > guard {
		return []results.Claim{results.Breaks(results.Violations)}
	}
	return nil
}

// run plays one trial on a fresh topology, so that no clock offset carries over. It
// is judged only once every master's clock, read back, ran as the race's model says.
func (r clockRace) run(ctx context.Context, env *lab.Env, t *lab.Trial) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute+3*r.ttl)
	defer cancel()
	topo, err := env.StartTopology(ctx, r.spec())
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer topo.Close()
	nodes := topo.Masters()
	res := lab.NewResource("resource", false, t.Rec)
	la, err := r.locker(ctx, topo)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer la.Close()
	lb, err := r.locker(ctx, topo)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer lb.Close()
	a, b := lab.NewClient("A", la, t.Rec), lab.NewClient("B", lb, t.Rec)

	var down []topologies.Node
	for _, i := range r.unreachable {
		down = append(down, nodes[i])
	}
	if len(down) > 0 {
		if _,
			err := nemesis.Inject(ctx, "node-kill", nemesis.Target{Topology: topo, Nodes: down, Recorder: t.Rec}); err != nil {
			return lab.Failed("nemesis", err)
		}
	}
	started, lease, err := r.modelledGrant(ctx, t, a, topo)
	if err != nil {
		return err
	}
	aElapsed := time.Since(started)
	grantAt := time.Now()
	lag := topologies.MaxClockLag(topo)
	t.Input("store_clock_lag_ms", lab.Millis(lag))
	t.Input("a_acquire_ms", lab.Millis(aElapsed))
	t.Input("a_valid_ms", lab.Millis(lease.ValidUntil.Sub(grantAt)))
	aLeaves := r.leavesAt(grantAt, lease)
	if !r.neverFire {
		topologies.FireClockEvent(topo, grantEvent)
		t.Rec.Record(history.Event{Client: "nemesis", Kind: history.FaultInjected, Detail: "clock event " + grantEvent +
			": " + topo.Spec().ClockSummary()})
	}
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	// The step is read before the restart, which takes a process node a few hundred ms.
	watch, err := r.watchClocks(ctx, nodes, grantAt, aLeaves)
	if err != nil {
		return err
	}
	if len(down) > 0 {
		if _,
			err := nemesis.Inject(ctx, "node-restart-empty",
			nemesis.Target{Topology: topo, Nodes: down, Recorder: t.Rec}); err != nil {
			return lab.Failed("nemesis", err)
		}
		line, err := lab.ProvedEmpty(ctx, topo, down, t.Key)
		if err != nil {
			return err
		}
		watch.proof = append(watch.proof, line)
	}

	// A works until its validity ends (or its hold does) and stops then, whatever B
	// does. Its leaving is recorded at that instant itself: the race is with A's
	// belief, not with how late a sleeping goroutine wakes on a busy machine.
	aDone := make(chan struct{})
	go func() {
		defer close(aDone)
		_ = lab.Sleep(ctx, time.Until(aLeaves)-time.Millisecond)
		_, _ = a.Write(ctx, res, lease)
		_ = lab.Sleep(ctx, time.Until(aLeaves))
		t.Rec.Record(history.Event{Time: aLeaves, Client: a.ID, Kind: history.Left, Key: lease.Key, Resource: res.Name()})
	}()

	leaseB, bGranted, bErr := r.challenge(ctx, t, b, started, aElapsed, aLeaves)
	bInBeforeALeft := bGranted && time.Now().Before(aLeaves) // B enters at once: beside A or not
	if bGranted && bErr == nil {
		_ = b.Enter(ctx, res, leaseB)
		_, _ = b.Write(ctx, res, leaseB)
	}
	<-aDone
	partial, freeOfA := 0, 0
	if r.redlock() {
		if partial, freeOfA, err = partialLocks(ctx, nodes, t.Key, lease, leaseB, bGranted); err != nil {
			return lab.Failed("observe", err)
		}
		t.Input(bPartialNodes, float64(partial))
	}
	if len(down) > 0 && r.redlock() {
		// A fail-fast grant leaves SETs to the down nodes in flight (go-redis keeps
		// redialling): one landing after the restart gives A a node it never counted.
		late, err := lab.ReadQuorumNodes(ctx, down, t.Key, lease.Token)
		if err != nil {
			return lab.Failed("observe", err)
		}
		t.Input(aLateSets, float64(len(late.Holding)))
	}
	if bGranted {
		b.Leave(res, leaseB)
		_ = b.Release(ctx, leaseB)
	}
	_ = a.Release(ctx, lease)
	if bErr != nil {
		return bErr
	}
	if err := r.leftoversCouldDecide(partial, freeOfA, len(nodes), bGranted); err != nil {
		return err
	}
	if err := watch.confirm(ctx); err != nil {
		return err
	}
	if bInBeforeALeft {
		if err := r.lagCouldDecide(aElapsed, lag); err != nil {
			return err
		}
	}
	for _, line := range watch.proof {
		t.Prove("%s", line)
	}
	return nil
}

// modelledGrant is A's grant as the model has it, and when its granting attempt began.
// A waiting Redlock grant that missed a reachable node (a SET past its per-node deadline
// on a busy machine) is given back and asked again, up to lab.LateAttempts grants, before
// any clock moves: the race is for a lock on every node, not for the machine's load.
func (r clockRace) modelledGrant(ctx context.Context, t *lab.Trial, a *lab.Client,
	topo topologies.Topology) (time.Time, locks.Lease, error) {
	reachable := r.reachable(topo.Masters())
	attempts := 0.0
	for grants := 1; ; grants++ {
		topologies.MarkClockLag(topo)
		started, lease, n, err := r.firstGrant(ctx, a, t.Key)
		attempts += n
		t.Input("a_attempts", attempts)
		if err != nil {
			return started, lease, lab.FirstGrant(err)
		}
		if !r.redlock() {
			return started, lease, nil
		}
		if grants <= r.shortGrants {
			if err := dropKey(ctx, reachable[0], t.Key); err != nil {
				return started, lease, lab.Failed("setup", err)
			}
		}
		// Read before the jump fires, or a jumped node's key may already be gone.
		held, err := lab.ReadQuorumNodes(ctx, reachable, t.Key, lease.Token)
		if err != nil {
			return started, lease, lab.Failed("observe", err)
		}
		t.Input(aNodesHeld, float64(len(held.Holding)))
		if len(held.Foreign) > 0 {
			return started, lease, lab.Late("nodes %v hold another token at A's key, left by A's own late attempt: the race is "+
				"for a key that is A's alone", held.Foreign)
		}
		err = r.grantAsModelled(len(held.Holding), len(reachable))
		if err == nil || grants == lab.LateAttempts {
			return started, lease, err
		}
		if err := a.Release(ctx, lease); err != nil {
			return started, lease, lab.Failed("release", err)
		}
	}
}

// dropKey deletes key on node (the shortGrants test hook).
func dropKey(ctx context.Context, node topologies.Node, key string) error {
	c := redisadmin.AdminClient(node.Addr())
	defer c.Close()
	return c.Del(ctx, key).Err()
}

// grantAsModelled refuses a race whose grant is not the model's: the model has A's key on
// every reachable node, and a waiting client that missed one (its SET past the per-node
// deadline on a busy machine) leaves B a quorum the clocks did not free. A fail-fast
// grant may stop at a majority by design: its trials are split by that count instead.
func (r clockRace) grantAsModelled(held, reachable int) error {
	if r.failFast() || held >= reachable {
		return nil
	}
	return lab.Late("A's grant held on %d of the %d reachable nodes (a SET past its per-node deadline on a busy "+
		"machine): the model races a lock on every one", held, reachable)
}

// leftoversCouldDecide refuses a waiting client's trial in which B was never granted
// while keys of its own refused attempts stayed on some node (a release past its node's
// bound on a busy machine) and A's key was gone from a quorum by the end of A's validity:
// only those leftovers, holding their nodes for a TTL, can then have kept B out, so B
// raced them, not A's clocks. With A still on a majority they decided nothing. A
// fail-fast client leaves them by design: its trials are split by that count instead
// (partialNote).
func (r clockRace) leftoversCouldDecide(partial, freeOfA, nodes int, bGranted bool) error {
	if r.failFast() || bGranted || partial == 0 || freeOfA < nodes/2+1 {
		return nil
	}
	return lab.Late("B's refused attempts left their key on %d node(s) (a release past its node's bound on a busy "+
		"machine), and with A's key gone from %d of %d nodes only those kept B out: B raced its own leftovers, not "+
		"A's clocks", partial, freeOfA, nodes)
}

// lagCouldDecide refuses a trial in which B got in before A left and the store's clock
// stood still long enough, while A's keys were set, to flip the model's answer: those
// keys started their TTL that much in the past, so the machine's load, not the clocks,
// may have freed a quorum. A B kept out until A left is judged whatever the lag: lag
// only shortens A's keys.
func (r clockRace) lagCouldDecide(aElapsed, lag time.Duration) error {
	if lag == 0 || r.outcome(aElapsed, aElapsed/2, 0).Violation() == r.outcome(aElapsed, aElapsed/2-lag, 0).Violation() {
		return nil
	}
	return lab.Late("the store's clock stood %v behind true time while A's keys were set (its ticker starved on a "+
		"busy machine): enough to change the model's answer", lag.Round(100*time.Microsecond))
}

// firstGrant is A's acquire and when the granting attempt began. A node past its
// deadline is A's own lateness on a busy machine, not the clock's doing: A asks again
// (partial SETs of a failed attempt are released by it), and the race is timed from the
// attempt that was granted.
func (r clockRace) firstGrant(ctx context.Context, a *lab.Client, key string) (time.Time, locks.Lease, float64, error) {
	g, err := lab.AcquireAlone(ctx, a, key, r.ttl, 0)
	return g.Started, g.Lease, float64(g.Attempts), err
}

// challenge is B trying until A leaves (its validity or its hold ends): coarsely at first, every millisecond
// from a little before the model says the keys could be free (the history stays
// small). Contention is the only refusal B shrugs off; any other failure ends the
// trial as an error. The race was run only if one of B's attempts began once the model
// has a quorum free and returned before A left: on a busy machine B can be late for a
// window of a few milliseconds, and a trial it missed shows nothing.
func (r clockRace) challenge(ctx context.Context, t *lab.Trial, b *lab.Client, started time.Time,
	aElapsed time.Duration, aLeaves time.Time) (locks.Lease, bool, error) {
	predicted := r.predict(aElapsed, 0)
	fineFrom := started.Add(predicted.EarliestB - 30*time.Millisecond)
	window := bWindow{closes: aLeaves}
	if predicted.EarliestB == clocks.Never {
		fineFrom = aLeaves
	}
	// The window opens when a quorum is surely free; if only keys set early free one in
	// time, when the model has them free.
	if latest := r.predictLatest(aElapsed); latest.Violation() {
		window.opens = started.Add(latest.EarliestB)
	} else if predicted.Violation() {
		window.opens = started.Add(predicted.EarliestB)
	}
	// Attempts run on ctx, not on a context ending with A's validity: one cut off there
	// would skip its release and leave a partial lock that B's tally would count.
	for time.Now().Before(aLeaves) {
		t0 := time.Now()
		leaseB, err := b.Acquire(ctx, t.Key, r.ttl)
		t1 := time.Now()
		t.Input("b_attempt_ms", lab.Millis(t1.Sub(t0)))
		// A node past its deadline is B's own lateness on a busy machine: no grant, and
		// no test of the race either; raced judges whether another attempt ran in time.
		late := errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil
		if !late {
			window.saw(t0, t1, err == nil)
		}
		if err == nil {
			return leaseB, true, r.raced(&window, started, aElapsed)
		}
		if ctx.Err() != nil {
			return locks.Lease{}, false, ctx.Err()
		}
		if !errors.Is(err, locks.ErrNotAcquired) && !late {
			return locks.Lease{}, false, lab.Failed("second-acquire", err)
		}
		wait := time.Millisecond
		if time.Now().Before(fineFrom) {
			wait = 20 * time.Millisecond
		}
		_ = lab.Sleep(ctx, min(wait, time.Until(aLeaves)))
	}
	if ctx.Err() != nil {
		return locks.Lease{}, false, ctx.Err()
	}
	return locks.Lease{}, false, r.raced(&window, started, aElapsed)
}

// raced is nil when B ran the race the model gives at this trial's own speeds. With B's
// fastest attempt the model may have B refused to the end: then any refusal before A
// left tests that, unless the variant claims a break, which a B this slow cannot show.
func (r clockRace) raced(w *bWindow, started time.Time, aElapsed time.Duration) error {
	if !w.grantedInTime && w.fastest > 0 && !r.predict(aElapsed, w.fastest).Violation() {
		if slices.Contains(claimsFromModel(r, expectGuard), results.Breaks(results.Violations)) {
			return lab.Late(
				"B's fastest attempt took %v, too slow for the break the variant claims: B was late on a busy machine",
				w.fastest.Round(time.Microsecond))
		}
		w.opens, w.inWindow = time.Time{}, w.anyInTime
	}
	return w.missed(started)
}

// bWindow is when one of B's attempts tests the race: any that returned by closes (when A
// leaves) granted, or refused at or after opens (when the model has a quorum free;
// zero when the model has two holders impossible, where every refusal before closes
// counts). An attempt's return, not its start, is compared with opens: a window of a
// few milliseconds is as short as B's attempts and their 1 ms spacing.
type bWindow struct {
	opens, closes                      time.Time
	inWindow, anyInTime, grantedInTime bool
	fastest                            time.Duration // B's quickest attempt
}

func (w *bWindow) saw(began, returned time.Time, granted bool) {
	if d := returned.Sub(began); w.fastest == 0 || d < w.fastest {
		w.fastest = d
	}
	if returned.After(w.closes) {
		return
	}
	w.anyInTime = true
	w.grantedInTime = w.grantedInTime || granted
	// A refusal that took longer than the whole window began well before it opened: its
	// nodes may have answered while A's keys still stood.
	fits := w.opens.IsZero() || returned.Sub(began) <= w.closes.Sub(w.opens)
	w.inWindow = w.inWindow || !returned.Before(w.opens) && fits
}

// missed is the trial's verdict of lateness when no attempt fell inside the window.
func (w *bWindow) missed(started time.Time) error {
	if w.grantedInTime || w.inWindow {
		return nil
	}
	if w.opens.IsZero() {
		return lab.Late(
			"none of B's attempts returned before A left (%v after A's acquire began): B was late on a busy machine",
			w.closes.Sub(started).Round(time.Millisecond))
	}
	return lab.Late("none of B's attempts ran inside the race's window (from %v, when the model frees a quorum, to %v, "+
		"when A left, after A's acquire began): B was late on a busy machine",
		w.opens.Sub(started).Round(time.Millisecond), w.closes.Sub(started).Round(time.Millisecond))
}

// leavesAt is when A is done: its validity's end, or its hold's if sooner.
func (r clockRace) leavesAt(grantAt time.Time, lease locks.Lease) time.Time {
	if end := grantAt.Add(r.hold); r.hold > 0 && end.Before(lease.ValidUntil) {
		return end
	}
	return lease.ValidUntil
}

// clockWatch is the proof, read from the nodes, that a race's clocks ran as modelled.
type clockWatch struct {
	models []lab.ModelClock         // one per master
	first  map[int]lab.ClockReading // the reading a rate's growth is measured from
	proof  []string
}

// watchClocks reads the skewed nodes right after the grant: a step must show within
// clockShowBound and before A leaves (later, it was not a fault during A's hold); a rate
// gets its first reading. The true nodes (the unreachable ones among them, down at this
// point) are read by confirm.
func (r clockRace) watchClocks(ctx context.Context, nodes []topologies.Node, grantAt, aLeaves time.Time) (*clockWatch,
	error) {
	w := &clockWatch{first: map[int]lab.ClockReading{}}
	for i, n := range nodes {
		m, err := lab.ExpectClock(n, r.clocks[i], map[string]time.Time{grantEvent: grantAt})
		if err != nil {
			return nil, err
		}
		w.models = append(w.models, m)
	}
	for i, m := range w.models {
		switch {
		case m.Model.IsTrue():
		case m.OffRate():
			c := lab.NewClockReader(m.Node)
			first, err := c.Read(ctx)
			c.Close()
			if err != nil {
				return nil, err
			}
			w.first[i] = first
		default:
			reading, line, err := lab.AwaitOffset(ctx, m)
			if err != nil {
				return nil, err
			}
			if reading.Received.After(aLeaves) {
				return nil,
					lab.NoFault("%s showed its step only %v after the grant, after A had left", m.Node.Name(),
						reading.Received.Sub(grantAt).Round(time.Millisecond))
			}
			w.proof = append(w.proof,
				fmt.Sprintf("%s %v after the grant", line, reading.Received.Sub(grantAt).Round(10*time.Microsecond)))
		}
	}
	return w, nil
}

// confirm reads every master once the race is over: a stepped clock must still show
// its model, a rate must have grown the offset by the model's amount since the grant,
// and a true clock must read true (the precondition of every control).
func (w *clockWatch) confirm(ctx context.Context) error {
	var trueClocks []string
	for i, m := range w.models {
		switch {
		case m.OffRate():
			line, err := lab.AwaitGrowth(ctx, m, w.first[i])
			if err != nil {
				return err
			}
			w.proof = append(w.proof, line)
		default:
			_, line, err := lab.AwaitOffset(ctx, m)
			if err != nil {
				return err
			}
			if m.Model.IsTrue() {
				trueClocks = append(trueClocks, line)
			}
		}
	}
	if len(trueClocks) > 0 {
		w.proof = append(w.proof,
			fmt.Sprintf("true clocks after the race: %s (within %v)", strings.Join(trueClocks, ", "), lab.OffsetTolerance))
	}
	return nil
}

// clockVariant is one race run as a variant.
type clockVariant struct {
	lab.Variant
	race   clockRace
	inputs map[string]float64 // recorded with every trial, for plots by any axis
}

// newClockVariant measures violations, with the claims the model leaves no doubt about.
func newClockVariant(name, description string, params map[string]string, race clockRace,
	inputs map[string]float64) clockVariant {
	return clockVariant{lab.Variant{Variant: &results.Variant{Name: name, Description: description, Params: params,
		Measure: results.Violations, Claims: claimsFromModel(race, expectGuard)}}, race, inputs}
}

// runClockVariants runs every variant's trials, each through env.runTrial, and notes
// the model's prediction beside what was measured.
func runClockVariants(ctx context.Context, env *lab.Env, variants []clockVariant) (*results.Report, error) {
	rep, err := lab.RunTrials(ctx, env, variants, func(ctx context.Context, v clockVariant, t *lab.Trial) error {
		for k, x := range v.inputs {
			t.Input(k, x)
		}
		return v.race.run(ctx, env, t)
	})
	if err != nil {
		return nil, err
	}
	for _, v := range variants {
		noteModel(v.Variant.Variant, v.race)
		if v.race.redlock() {
			v.Note(quorumNote(v.Variant.Variant, len(v.race.clocks)))
			v.Note(partialNote(v.Variant.Variant))
		}
		if v.race.redlock() && len(v.race.unreachable) > 0 {
			v.Note(lateSetNote(v.Variant.Variant))
		}
	}
	return rep, nil
}

// noteModel puts the model's verdict for the measured median timings first in v's notes.
func noteModel(v *results.Variant, r clockRace) {
	aMed, bMed := medianInput(v.Trials, "a_acquire_ms"), medianInput(v.Trials, "b_attempt_ms")
	p := r.predict(aMed, bMed)
	say := "holds"
	if p.Violation() {
		say = fmt.Sprintf("breaks (overlap up to %v)", p.Overlap.Round(time.Microsecond))
	}
	got := "no judged trial"
	if t := v.Tally; t.Judged > 0 {
		got = fmt.Sprintf("broke in %d of %d judged trials", t.Broke[results.Violations], t.Judged)
	}
	note := fmt.Sprintf("model: %s; measured: %s (A's acquire %v, B's attempt %v)", say, got,
		aMed.Round(time.Microsecond), bMed.Round(time.Microsecond))
	v.Notes = append([]string{note}, v.Notes...)
}

// medianInput is the median of input name (in ms) over the trials that recorded it.
func medianInput(trials []results.Trial, name string) time.Duration {
	var xs []float64
	for _, t := range trials {
		if x, ok := t.Inputs[name]; ok {
			xs = append(xs, x)
		}
	}
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return time.Duration(xs[len(xs)/2] * float64(time.Millisecond))
}

// searchSmallest bisects the smallest x in [lo, hi] at which some judged trial of
// race(x) breaks mutual exclusion, and reports it beside the model's threshold for
// the same race with the timings measured along the way. Its variant is a
// measurement. A probe whose trials were not all judged counts as not breaking, and
// says so: the result is then marked with how many trials went unjudged.
func searchSmallest(ctx context.Context, env *lab.Env, scenario, name string, lo, hi, tol float64,
	race func(float64) clockRace, show func(float64) string) (*results.Variant, error) {
	v := &results.Variant{Name: name, Measure: results.Violations,
		Description: fmt.Sprintf(
			"bisection over [%s, %s] to %s, %d trials per probe; breaks = a judged trial with two holders", show(lo), show(hi),
			show(tol), env.Trials)}
	var runErr error
	unjudged := 0
	probe := func(x float64) bool {
		if runErr != nil {
			return false
		}
		broke, judged := false, 0
		for i := 0; i < env.Trials; i++ {
			err := env.RunTrial(ctx, scenario, v, len(v.Trials), func(ctx context.Context, t *lab.Trial) error {
				t.Input("x", x)
				return race(x).run(ctx, env, t)
			})
			if err != nil {
				runErr = err
				return false
			}
			last := v.Trials[len(v.Trials)-1]
			if last.Outcome == results.Judged {
				judged++
				broke = broke || last.Counts[results.Violations] > 0
			}
		}
		if judged < env.Trials {
			unjudged += env.Trials - judged
			v.Note(fmt.Sprintf("probe %s: %d of %d trials judged; counted as not breaking", show(x), judged, env.Trials))
		}
		env.Log("%s/%s probe %s: breaks %v (%d of %d judged)", scenario, name, show(x), broke, judged, env.Trials)
		return broke
	}
	found, ok := clocks.SmallestBreaking(lo, hi, tol, probe)
	if runErr != nil {
		return nil, runErr
	}
	aMed, bMed := medianInput(v.Trials, "a_acquire_ms"), medianInput(v.Trials, "b_attempt_ms")
	predicted,
		pok := clocks.SmallestBreaking(lo, hi, tol/1000,
		func(x float64) bool { return race(x).predict(aMed, bMed).Violation() })
	measured, model := "none up to "+show(hi), "none up to "+show(hi)
	if ok {
		measured = show(found)
	}
	if pok {
		model = show(predicted)
	}
	if unjudged > 0 {
		measured += fmt.Sprintf(" (%d unjudged)", unjudged)
	}
	v.Params = map[string]string{"measured_smallest": measured, "model_smallest": model}
	v.Notes = append([]string{fmt.Sprintf("smallest breaking: measured %s, model %s (A's acquire %v, B's attempt %v)",
		measured, model, aMed.Round(time.Microsecond), bMed.Round(time.Microsecond))}, v.Notes...)
	return v, nil
}
