package release

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// checkThenWriteLock: the write-up's step 3, "asking whether my lock is still valid
// does not help". A wakes from a pause that ends just before its lease does, asks the
// server (GET token, or PTTL) and is told the lock is valid, then writes a few ms
// later: the lock expired in between and B, already inside, wrote first. The check's
// answer is true when given and stale when used; a fenced resource refuses A's write.
type checkThenWriteLock struct{}

// When A writes after its check said valid.
const (
	writeAfterGap    = "after-gap"
	writeAfterExpiry = "after-expiry"
)

// fitsCheckThenWrite: A's check is GET or PTTL on the store's one master, which holds
// the key; the fenced variants number grants with its INCR when the strategy has no fence.
func fitsCheckThenWrite(s lab.Store) bool {
	k, stores := s.Spec().Kind, linked.Catalog()
	return backend.KindIs[backend.RedisProtocol](stores, k) && backend.KindIs[backend.CounterFence](stores, k)
}

type checkWriteVariant struct {
	lab.Variant
	check  lockCheck
	fenced bool // the resource refuses a fence not above the highest it accepted
}

func (s checkThenWriteLock) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	store := p.Store("strategies")
	topo, err := env.StartTopology(ctx, store.Spec())
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	mk := func(name, what string, claims ...results.Claim) lab.Variant {
		return lab.Variant{Variant: &results.Variant{Name: name, Description: what, Measure: claims[0].Measure,
			Claims: claims,
			Params: map[string]string{"fence": store.FenceSource()}}}
	}
	var variants []checkWriteVariant
	for _, how := range []lockCheck{checkByGet, checkByPTTL} {
		ask := map[lockCheck]string{checkByGet: "GET key == its token", checkByPTTL: "PTTL key > 0"}[how]
		variants = append(variants,
			checkWriteVariant{mk(string(how)+"/unfenced", "A's check ("+ask+") says valid; A writes after the gap; the lock "+
				"had expired and B wrote first: the unfenced resource takes A's stale write",
				results.Always(results.StaleAccepted), results.Always(results.ExpiredAfterCheck),
				results.Always(results.Violations)), how, false},
			checkWriteVariant{mk(string(how)+"/fenced", "the same, the resource checks the fence ("+store.FenceSource()+
				"): A's stale write is refused",
				results.Holds(results.StaleAccepted), results.Always(results.StaleRejected),
				results.Always(results.ExpiredAfterCheck)), how, true},
		)
	}
	timing := checkTiming{ttl: p.Duration("ttl"), land: p.Duration("land"), gap: p.Duration("gap"),
		forced: p.String("write") == writeAfterExpiry}
	rep, err := lab.RunTrials(ctx, env, variants, func(ctx context.Context, v checkWriteVariant, t *lab.Trial) error {
		return s.trial(ctx, store, topo, v, t, timing)
	})
	if err != nil {
		return nil, err
	}
	for _, v := range rep.Variants {
		if !timing.forced { // a forced write is wrong every time by construction: no rate
			noteCheckRate(v, timing.land, timing.gap)
		}
	}
	return rep, nil
}

// checkTiming is when A's check lands and when A writes after it.
type checkTiming struct {
	ttl, land, gap time.Duration
	forced         bool // A writes only once B wrote, not after the gap
}

// noteCheckRate says how often a check that said valid was already wrong at the
// write: the judged trials are only those, so the rate is in the inputs.
func noteCheckRate(v *results.Variant, land, gap time.Duration) {
	valid, expired := 0, 0
	for _, tr := range v.Trials {
		valid += int(tr.Inputs["check_said_valid"])
		expired += int(tr.Inputs["expired_at_write"])
	}
	if valid > 0 {
		lo, hi := results.Wilson(expired, valid)
		rate := fmt.Sprintf("checks landing in the last %v of the lease, write %v later: of %d checks that said valid, %d "+
			"were wrong at the write (%.0f-%.0f%%)",
			land, gap, valid, expired, 100*lo, 100*hi)
		v.Notes = append([]string{rate}, v.Notes...) // first: the trials' own notes may fill the cap
		v.Notes = v.Notes[:min(len(v.Notes), 10)]
	}
}

func (s checkThenWriteLock) trial(ctx context.Context, store lab.Store, topo topologies.Topology, v checkWriteVariant,
	t *lab.Trial, timing checkTiming) error {
	ttl, land, gap := timing.ttl, timing.land, timing.gap
	ctx, cancel := context.WithTimeout(ctx, 20*ttl+10*time.Second)
	defer cancel()
	addr := topo.Masters()[0].Addr()
	res := lab.NewResource("resource", v.fenced, t.Rec)
	clients, closeClients, err := lab.StoreClients(ctx, store, topo, true, t.Rec, "A", "B")
	if err != nil {
		return err
	}
	defer closeClients()
	a, b := clients[0], clients[1]
	asker, observer := lab.PlainClient(addr), lab.PlainClient(addr) // A's own connection; the lab's
	defer asker.Close()
	defer observer.Close()

	leaseA, err := a.Acquire(ctx, t.Key, ttl)
	if err != nil {
		return lab.FirstGrant(err)
	}
	if err := a.Enter(ctx, res, leaseA); err != nil {
		return err
	}
	// B waits for the key, writes as soon as it has it, and stays inside until A wrote.
	bWrote, aDone := make(chan struct{}), make(chan struct{})
	bErr := make(chan error, 1)
	go func() {
		leaseB, err := b.AcquireUntil(ctx, t.Key, 20*ttl, time.Millisecond)
		if err != nil {
			close(bWrote)
			bErr <- lab.Failed("second-acquire", err)
			return
		}
		b.Work(ctx, res, leaseB, func() {
			close(bWrote)
			lab.Until(ctx, aDone)
		})
		_ = b.Release(ctx, leaseB)
		bErr <- nil
	}()
	finish := func(err error) error {
		close(aDone)
		if berr := <-bErr; err == nil {
			err = berr
		}
		return err
	}

	lands := time.Duration(t.Rand.Int64N(int64(land) + 1))
	if timing.forced { // where the check lands changes nothing then: as early as land allows
		lands = land
	}
	pause := time.Until(leaseA.ValidUntil) - lands
	t.Input("check_before_end_ms", lab.Millis(lands))
	if pause <= 0 {
		return finish(lab.Failed("timing", fmt.Errorf("A's grant took the whole %v TTL", ttl)))
	}
	heal, err := nemesis.Inject(ctx, "client-pause", nemesis.Target{Client: a, Duration: pause, Recorder: t.Rec})
	if err != nil {
		return finish(lab.Failed("nemesis", err))
	}
	defer heal(context.Background())
	if err := a.Checkpoint(ctx); err != nil { // A stands still until the pause ends
		return finish(err)
	}
	valid, left, err := askValid(ctx, asker, v.check, leaseA)
	answered := time.Now()
	if err != nil {
		return finish(lab.Failed("check", err))
	}
	t.Input("pttl_seen_ms", lab.Millis(left))
	if !valid {
		return finish(lab.NoFault(
			"A's check (%s) said the lock was gone, %v before its lease's end: A would not write", v.check,
			leaseA.ValidUntil.Sub(answered)))
	}
	t.Input("check_said_valid", 1)
	if timing.forced {
		gap = waitForB(ctx, bWrote, 20*ttl)
	} else {
		_ = lab.Sleep(ctx, gap) // A's own work between the answer and the write
	}
	seen, err := redisadmin.ReadKey(ctx, addr, t.Key)
	if err != nil {
		return finish(lab.Failed("observe", err))
	}
	if seen.Present && seen.Value == leaseA.Token {
		return finish(lab.NoFault("A's key was still A's %v after the check said valid: the check was right this time",
			time.Since(answered).Round(time.Microsecond)))
	}
	t.Input("expired_at_write", 1)
	select { // the race is B's write landing first; B is inside within a ms or so
	case <-bWrote:
	case <-time.After(10 * ttl):
		return finish(lab.NoFault("B had not written %v after A's lock expired", 10*ttl))
	}
	if _, err := a.Write(ctx, res, leaseA); err != nil {
		return finish(err)
	}
	a.Leave(res, leaseA)
	t.Count(results.ExpiredAfterCheck, 1)
	holder := "nobody"
	if seen.Present {
		holder = "token " + seen.Value
	}
	t.Prove("A's check (%s) said valid %v before its lease's end (PTTL %v); %v later the key was held by %s",
		v.check, leaseA.ValidUntil.Sub(answered).Round(time.Microsecond), left, gap, holder)
	_ = a.Release(ctx, leaseA)
	return finish(nil)
}

// waitForB holds A after its check until B wrote (or limit passed) and returns how long:
// the pause between the answer and the write, forced so that no scheduler decides it.
func waitForB(ctx context.Context, bWrote <-chan struct{}, limit time.Duration) time.Duration {
	start := time.Now()
	select {
	case <-bWrote:
	case <-time.After(limit):
	case <-ctx.Done():
	}
	return time.Since(start)
}
