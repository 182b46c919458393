package redlock

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// redlockFence: fencing problem 2, Redlock has no global counter. The obvious
// workaround, INCR on each node of the granting majority and the largest value as the
// fence, goes backwards when the next majority's counters lagged (nodes that were
// unreachable during earlier grants) or were lost in an empty restart: a fence
// reissued, and the real holder's write refused. The random token Redlock does offer
// cannot order writes at all: a store that can only compare tokens for equality takes
// a paused holder's stale write.
type redlockFence struct{}

type fenceHistory string

const (
	fenceSteady    fenceHistory = "steady"         // every node answers every grant
	fenceLagged    fenceHistory = "counter-lagged" // nodes are unreachable in turn; nothing is lost
	fenceRestarted fenceHistory = "restart-empty"  // a node of the last majority loses its counter
	randomToken    fenceHistory = "random-token"   // no counter: the token, and a paused holder
)

type redlockFenceVariant struct {
	lab.Variant
	history fenceHistory
}

func (s redlockFence) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	topo, err := env.StartTopology(ctx, backend.Spec{Kind: topologies.Redlock, Masters: 5})
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	mk := func(h fenceHistory, fence, what string, claims ...results.Claim) redlockFenceVariant {
		return redlockFenceVariant{lab.Variant{Variant: &results.Variant{Name: fence + "/" + string(h), Description: what,
			Measure: claims[0].Measure,
			Claims:  claims, Params: map[string]string{"fence": fence}}}, h}
	}
	variants := []redlockFenceVariant{
		mk(fenceSteady, "max-fence",
			"all five nodes answer every grant, A and B in turn: the largest per-node INCR only grows",
			results.Holds(results.ReissuedTokens), results.Holds(results.HonestRejected)),
		mk(fenceLagged, "max-fence", "grants on {0,1,2} (3,4 stopped), then on {0,3,4} (1,2 stopped), then B's on "+
			"{1,2,3,4} (0 stopped): B's majority never saw the largest count",
			results.Always(results.ReissuedTokens), results.Always(results.HonestRejected)),
		mk(fenceRestarted, "max-fence",
			"grants on {0,1,2} (3,4 stopped); node 2 restarts empty; B's grant on {2,3,4} (0,1 stopped) counts from 1",
			results.Always(results.ReissuedTokens), results.Always(results.HonestRejected)),
		mk(randomToken, "token", "A pauses past its lease before writing; B writes; A writes with its random token to a "+
			"store that can only compare tokens: accepted",
			results.Always(results.StaleAccepted), results.Always(results.FenceViolations), results.Always(results.Violations)),
	}
	ttl, cycles := p.Duration("ttl"), p.Int("cycles")
	return lab.RunTrials(ctx, env, variants, func(ctx context.Context, v redlockFenceVariant, t *lab.Trial) error {
		if err := wakeAll(ctx, topo); err != nil {
			return lab.Failed("setup", err)
		}
		if v.history == randomToken {
			return s.tokenTrial(ctx, topo, t, ttl)
		}
		return s.counterTrial(ctx, topo, v.history, t, ttl, cycles)
	})
}

// wakeAll brings every node back before a trial: a previous trial's stopped or
// killed node must not shape this one.
func wakeAll(ctx context.Context, topo topologies.Topology) error {
	for _, n := range topo.Masters() {
		if !n.Running() {
			if err := n.Restart(ctx, topologies.RestartEmpty); err != nil {
				return err
			}
			continue
		}
		if err := n.Resume(); err != nil {
			return err
		}
	}
	return nil
}

// counterTrial runs lock cycles with the per-node max fence through the phases of h,
// every write to a resource that refuses a fence not above the highest it took.
func (s redlockFence) counterTrial(ctx context.Context, topo topologies.Topology, h fenceHistory, t *lab.Trial,
	ttl time.Duration, cycles int) error {
	// Each phase waits out a TTL for the SETs a stopped node queued: three phases at most.
	ctx, cancel := context.WithTimeout(ctx, time.Minute+5*ttl)
	defer cancel()
	nodes := topo.Masters()
	addrs := topologies.Addrs(nodes)
	res := lab.NewResource("resource", true, t.Rec)
	newClient := func(id string) (*lab.Client, error) {
		// A stopped node must cost redsync's per-node budget, not go-redis's 2 s read timeout.
		opts := locks.Options{Options: redisconn.Options{Timeout: max(ttl/20, 20*time.Millisecond)}}
		l, err := locks.AtAddrs(ctx, "redlock", addrs, opts)
		if err != nil {
			return nil, lab.Failed("setup", err)
		}
		return lab.NewClient(id, newMaxFenceRedlock(l, addrs, countedAnswer(ttl)), t.Rec), nil
	}
	a, err := newClient("A")
	if err != nil {
		return err
	}
	defer a.Locker.Close()
	b, err := newClient("B")
	if err != nil {
		return err
	}
	defer b.Locker.Close()
	pick := func(idx ...int) []topologies.Node {
		var out []topologies.Node
		for _, i := range idx {
			out = append(out, nodes[i])
		}
		return out
	}
	// phase runs n cycles of c with the given nodes stopped.
	phase := func(c *lab.Client, n int, stopped ...int) error {
		heal, err := nemesis.Inject(ctx, "node-pause", nemesis.Target{Nodes: pick(stopped...), Recorder: t.Rec})
		if err != nil {
			return lab.Failed("nemesis", err)
		}
		for i := 0; i < n; i++ {
			if err := grantWriteRelease(ctx, c, res, t.Key, ttl); err != nil {
				heal(context.Background())
				return err
			}
		}
		if err := heal(ctx); err != nil {
			return lab.Failed("nemesis", err)
		}
		// A resumed node still runs the SETs queued while it was stopped: let those
		// keys expire before the next phase locks.
		return lab.Sleep(ctx, ttl+50*time.Millisecond)
	}

	var last error
	switch h {
	case fenceSteady:
		for i := 0; i < 2*cycles+1 && last == nil; i++ {
			last = grantWriteRelease(ctx, []*lab.Client{a, b}[i%2], res, t.Key, ttl)
		}
		if last != nil {
			return last
		}
		counts := fenceCounters(ctx, addrs, t.Key)
		if slices.Min(counts) != int64(2*cycles+1) {
			return lab.NoFault("the counters read %v: some grant did not count on all five nodes", counts)
		}
		t.Prove("%d grants, every node answered each: counters %v", 2*cycles+1, counts)
		return nil
	case fenceLagged:
		if err := phase(a, cycles, 3, 4); err != nil {
			return err
		}
		if err := phase(a, cycles, 1, 2); err != nil {
			return err
		}
		before := fenceCounters(ctx, addrs, t.Key)
		if err := phase(b, 1, 0); err != nil {
			return err
		}
		return proveCounters(t, before, []int{1, 2, 3, 4}, "lagged")
	case fenceRestarted:
		if err := phase(a, cycles, 3, 4); err != nil {
			return err
		}
		runID, err := redisadmin.RunID(ctx, nodes[2].Addr())
		if err != nil {
			return lab.Failed("observe", err)
		}
		if _, err := nemesis.Inject(ctx, "node-restart-empty", nemesis.Target{Nodes: pick(2), Recorder: t.Rec}); err != nil {
			return lab.Failed("nemesis", err)
		}
		after, err := redisadmin.RunID(ctx, nodes[2].Addr())
		if err != nil {
			return lab.Failed("observe", err)
		}
		if after == runID {
			return lab.NoFault("%s kept run_id %s: it did not restart", nodes[2].Name(), after)
		}
		before := fenceCounters(ctx, addrs, t.Key)
		if err := phase(b, 1, 0, 1); err != nil {
			return err
		}
		t.Prove("%s restarted (run_id %s -> %s)", nodes[2].Name(), runID[:8], after[:8])
		return proveCounters(t, before, []int{2, 3, 4}, "lagged or lost")
	}
	return fmt.Errorf("unknown fence history %q", h)
}

// proveCounters: the fault is B's majority's counters all below the largest count
// before B's grant, read on the nodes themselves.
func proveCounters(t *lab.Trial, before []int64, majority []int, what string) error {
	top := slices.Max(before)
	for _, i := range majority {
		if before[i] < 0 || before[i] >= top {
			return lab.NoFault("counters before B's grant %v: node %d of B's majority %v is not behind the largest", before, i,
				majority)
		}
	}
	t.Prove("counters before B's grant %v: every node of B's majority %v %s behind the largest, %d", before, majority,
		what, top)
	return nil
}

// grantWriteRelease is one holder's turn: grant, one write, release. One client locks
// at a time, so an attempt cut off by a node's deadline is the client's lateness, and a
// refusal is a stray key an earlier late attempt or release left on some nodes: it asks
// again, ttl/4 apart, until that key's TTL has surely passed, not contention.
func grantWriteRelease(ctx context.Context, c *lab.Client, res *lab.Resource, key string, ttl time.Duration) error {
	g, err := lab.AcquireAlone(ctx, c, key, ttl, ttl/4)
	for strayUntil := time.Now().Add(2 * ttl); errors.Is(err, locks.ErrNotAcquired) && time.Now().Before(strayUntil); {
		if err := lab.Sleep(ctx, ttl/4); err != nil {
			return err
		}
		g, err = lab.AcquireAlone(ctx, c, key, ttl, ttl/4)
	}
	lease := g.Lease
	if err != nil {
		return lab.Failed("acquire", fmt.Errorf("client %s: %w", c.ID, err))
	}
	if err := c.Enter(ctx, res, lease); err != nil {
		return err
	}
	if _, err := c.Write(ctx, res, lease); err != nil {
		return err
	}
	c.Leave(res, lease)
	if err := c.Release(ctx, lease); err != nil && !errors.Is(err, locks.ErrNotHeld) {
		return lab.Failed("release", fmt.Errorf("client %s: %w", c.ID, err))
	}
	return nil
}

// tokenTrial: A holds a plain Redlock and pauses past its lease before its first
// write; B takes the lock and writes; A writes with its token.
func (s redlockFence) tokenTrial(ctx context.Context, topo topologies.Topology, t *lab.Trial, ttl time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 10*ttl+30*time.Second)
	defer cancel()
	addrs := topologies.Addrs(topo.Masters())
	cs := lab.NewResource("critical-section", false, t.Rec)
	store := newEqualityResource("token-store", t.Rec)
	var clients []*lab.Client
	for _, id := range []string{"A", "B"} {
		l, err := locks.AtAddrs(ctx, "redlock", addrs, locks.Options{})
		if err != nil {
			return lab.Failed("setup", err)
		}
		defer l.Close()
		clients = append(clients, lab.NewClient(id, l, t.Rec))
	}
	a, b := clients[0], clients[1]
	grantA, err := lab.AcquireAlone(ctx, a, t.Key, ttl, ttl/4)
	if err != nil {
		return lab.FirstGrant(err)
	}
	leaseA := grantA.Lease
	if err := a.Enter(ctx, cs, leaseA); err != nil {
		return err
	}
	heal, err := nemesis.Inject(ctx, "client-pause", nemesis.Target{Client: a, Duration: 2 * ttl, Recorder: t.Rec})
	if err != nil {
		return lab.Failed("nemesis", err)
	}
	defer heal(context.Background())
	tryCtx, tryCancel := context.WithTimeout(ctx, 2*ttl)
	leaseB, err := b.AcquireUntil(tryCtx, t.Key, 10*ttl, 10*time.Millisecond)
	tryCancel()
	if err != nil {
		return lab.Failed("second-acquire", err)
	}
	_ = b.Enter(ctx, cs, leaseB)
	store.Write("B", t.Key, leaseB.Token, 2)
	if err := a.Checkpoint(ctx); err != nil { // A's write waits for the end of its pause
		return err
	}
	wrote := time.Now()
	store.Write("A", t.Key, leaseA.Token, 1)
	a.Leave(cs, leaseA)
	b.Leave(cs, leaseB)
	_ = b.Release(ctx, leaseB)
	if !wrote.After(leaseA.ValidUntil) {
		return lab.NoFault("A wrote %v before its validity ended", leaseA.ValidUntil.Sub(wrote))
	}
	t.Prove("A wrote %v after its validity ended, %v after B's grant",
		wrote.Sub(leaseA.ValidUntil).Round(time.Millisecond), wrote.Sub(leaseB.Start).Round(time.Millisecond))
	return nil
}
