package clock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/rueidislayout"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// rueidisClockBehind: rueidislock writes its key's end as an instant on the client's
// clock (SET NX PXAT now+5s, and its watchdog's PEXPIREAT now+5s every 2.5 s). On a
// server whose clock is ahead of the client's by more than that validity, the key is
// set already expired and B is granted beside A at once. FallbackSETPX gives the first
// validity in the server's own time (PX), but the watchdog's first push still writes a
// past instant and deletes the key: with client-side caching the deletion's
// invalidation tells A, without it A learns only at the next push, after B is in.
type rueidisClockBehind struct{}

const (
	rueidisCached   = "rueidislock"
	rueidisUncached = "rueidislock-nocache"
	// rueidisHoldTTL is the lease A and B ask for: longer than the trial, so that only
	// the library, never the lease's own end, stops A's lock.
	rueidisHoldTTL = time.Minute
)

// rueidisVariant is one strategy under one clock, acquiring by SET PXAT or SET PX.
type rueidisVariant struct {
	lab.Variant
	strategy string
	ahead    time.Duration // the server's clock ahead of the client's; 0: true clocks
	setPX    bool          // FallbackSETPX
}

func (s rueidisClockBehind) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	ahead := p.Duration("ahead")
	if ahead <= rueidislayout.KeyValidity {
		return nil, &lab.ParamError{Name: "ahead", Value: ahead.String(), Want: "more than the library's key validity (" +
			rueidislayout.KeyValidity.String() + "): a smaller offset only shortens the key"}
	}
	var variants []rueidisVariant
	for _, name := range p.Strings("strategies") {
		variants = append(variants, rueidisVariants(name, ahead)...)
	}
	// One server per clock; each trial has keys of its own.
	servers := map[time.Duration]topologies.Topology{}
	defer func() {
		for _, topo := range servers {
			topo.Close()
		}
	}()
	return lab.RunTrials(ctx, env, variants, func(ctx context.Context, v rueidisVariant, t *lab.Trial) error {
		topo, ok := servers[v.ahead]
		if !ok {
			var err error
			if topo, err = env.StartTopology(ctx, rueidisSpec(v.ahead)); err != nil {
				return lab.Failed("setup", err)
			}
			servers[v.ahead] = topo
		}
		return s.trial(ctx, topo.Masters()[0], v, t)
	})
}

func rueidisSpec(ahead time.Duration) backend.Spec {
	spec := backend.Spec{Kind: topologies.Single}
	if ahead != 0 {
		spec.Clocks = map[string]clocks.Model{lab.NodeName(0): {Offset: ahead}}
	}
	return spec
}

func rueidisVariants(name string, ahead time.Duration) []rueidisVariant {
	v := func(suffix, what string, ahead time.Duration, setPX bool, claim results.Claim) rueidisVariant {
		return rueidisVariant{lab.Variant{Variant: &results.Variant{Name: name + "/" + suffix, Measure: results.Violations,
			Claims: []results.Claim{claim}, Description: name + ": " + what,
			Params: map[string]string{"strategy": name, "ahead": ahead.String(), "fallback_setpx": fmt.Sprint(setPX)}}},
			name, ahead, setPX}
	}
	afterPush := results.Always(results.Violations) // without caching A hears nothing until the next push
	if name == rueidisCached {
		afterPush = results.Holds(results.Violations) // the deletion's invalidation tells A first
	}
	return []rueidisVariant{
		v("true-clock", "true clocks: the watchdog keeps A's key and B is refused", 0, false,
			results.Holds(results.Violations)),
		v("server-ahead", fmt.Sprintf("the server's clock %v ahead: SET PXAT sets A's key already expired", ahead),
			ahead, false, results.Always(results.Violations)),
		v("server-ahead-setpx", fmt.Sprintf("the server's clock %v ahead, FallbackSETPX: the key lives its validity "+
			"until the watchdog's first PEXPIREAT deletes it", ahead), ahead, true, afterPush),
	}
}

// trial: A takes the lock and stays inside until the library tells it the lock is gone;
// B tries once, after the library had its chance to tell A (right after A's grant if
// A's key is not on the server, else once the watchdog's first push has acted on it).
func (s rueidisClockBehind) trial(ctx context.Context, node topologies.Node, v rueidisVariant, t *lab.Trial) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	clockLine, err := serverClockShows(ctx, node, v.ahead)
	if err != nil {
		return err
	}
	a, b, closeAll, err := rueidisClients(ctx, node, v, t)
	if err != nil {
		return err
	}
	defer closeAll()
	res := lab.NewResource("resource", false, t.Rec)
	server := lab.PlainClient(node.Addr())
	defer server.Close()
	key := rueidislayout.Key(t.Key)

	grant, err := lab.AcquireAlone(ctx, a, t.Key, rueidisHoldTTL, 0)
	if err != nil {
		return lab.FirstGrant(err)
	}
	grantAt := time.Now()
	left, err := server.PTTL(ctx, key).Result()
	if err != nil {
		return lab.Failed("observe", fmt.Errorf("PTTL %s: %w", key, err))
	}
	if left < 0 {
		t.Input("a_key_pttl_ms", -1) // no key
	} else {
		t.Input("a_key_pttl_ms", lab.Millis(left))
	}
	lost, ok := a.Locker.(locks.LossNotifier).Lost(grant.Lease)
	if !ok {
		return lab.Failed("observe", errors.New("A's locker does not hold the lease it was just granted"))
	}
	if err := a.Enter(ctx, res, grant.Lease); err != nil {
		return err
	}
	proof, err := s.keyFate(ctx, server, key, v, left, grantAt)
	if err != nil {
		a.Leave(res, grant.Lease)
		return err
	}
	// A correct holder stops once told; B tries only after A had its chance to hear.
	told := lab.Within(ctx, lost, lab.NoticeBound)
	toldAfter := time.Since(grantAt)
	if told {
		t.Input("a_told_ms", lab.Millis(toldAfter))
		a.Leave(res, grant.Lease)
	}
	leaseB, err := b.Acquire(ctx, t.Key, rueidisHoldTTL)
	switch {
	case err == nil:
		b.Work(ctx, res, leaseB, nil)
		_ = b.Release(ctx, leaseB)
	case !errors.Is(err, locks.ErrNotAcquired):
		a.Leave(res, grant.Lease)
		return lab.Failed("second-acquire", err)
	}
	if !told {
		a.Leave(res, grant.Lease)
	}
	_ = a.Release(ctx, grant.Lease)
	t.Prove("%s", clockLine)
	t.Prove("%s", proof)
	if told {
		t.Prove("the library told A its lock was gone %v after the grant", toldAfter.Round(time.Millisecond))
	}
	return nil
}

// serverClockShows reads node's clock until it shows ahead (0: true time), or refuses
// to judge the trial; it returns the reading's line for the proof.
func serverClockShows(ctx context.Context, node topologies.Node, ahead time.Duration) (string, error) {
	model := clocks.Model{Offset: ahead}
	expect, err := lab.ExpectClock(node, model, nil)
	if err != nil {
		return "", err
	}
	_, line, err := lab.AwaitOffset(ctx, expect)
	return line, err
}

// rueidisClients are A and B, each with a locker of its own on node, acquiring as v says.
func rueidisClients(ctx context.Context, node topologies.Node, v rueidisVariant, t *lab.Trial) (a, b *lab.Client,
	closeAll func(), err error) {
	opts := locks.Options{Rueidis: locks.RueidisOptions{FallbackSETPX: v.setPX,
		TryNextAfter: time.Second}} // one SET's bound: the library's 20 ms runs out on a busy machine
	var lockers []locks.Locker
	closeAll = func() {
		for _, l := range lockers {
			l.Close()
		}
	}
	var clients []*lab.Client
	for _, id := range []string{"A", "B"} {
		l, err := locks.AtAddrs(ctx, v.strategy, []string{node.Addr()}, opts)
		if err != nil {
			closeAll()
			return nil, nil, nil, lab.Failed("setup", fmt.Errorf("client %s: %w", id, err))
		}
		lockers = append(lockers, l)
		clients = append(clients, lab.NewClient(id, l, t.Rec))
	}
	return clients[0], clients[1], closeAll, nil
}

// keyFate shows what the clock did to A's key, or refuses to judge a trial where it
// did not do what the variant is about: absent at the grant (PXAT already past on the
// server), or present and then pushed (true clocks) or deleted by the push (a past
// PEXPIREAT) before its own end.
func (s rueidisClockBehind) keyFate(ctx context.Context, server *redis.Client, key string, v rueidisVariant,
	left time.Duration, grantAt time.Time) (string, error) {
	pxatPast := v.ahead != 0 && !v.setPX
	switch {
	case left < 0 && pxatPast:
		return "A's key was not on the server right after its grant: its PXAT was already past there", nil
	case left < 0:
		return "", lab.Failed("observe", fmt.Errorf("A's key %s was not on the server right after its grant", key))
	case pxatPast:
		return "", lab.NoFault("A's key was on the server with %v left: its PXAT was not past there", left)
	}
	fate, at, err := awaitPush(ctx, server, key, left)
	if err != nil {
		return "", err
	}
	after := at.Sub(grantAt).Round(time.Millisecond)
	switch {
	case fate == pushed && v.ahead == 0:
		return fmt.Sprintf("A's watchdog pushed its key %v after the grant", after), nil
	case fate == deleted && v.ahead != 0 && at.Before(grantAt.Add(left-expiryMargin)):
		return fmt.Sprintf("A's key, set for %v, was deleted %v after the grant: the watchdog's PEXPIREAT was past",
			left, after), nil
	}
	return "", lab.NoFault("A's key was %s %v after the grant (set for %v): not what the clock would do",
		fate, after, left)
}

// expiryMargin separates a key deleted by a push from one that ran out on its own.
const expiryMargin = 250 * time.Millisecond

type keyChange string

const (
	pushed  keyChange = "pushed"
	deleted keyChange = "deleted"
)

// awaitPush reads the key's time left until it grows (a push) or the key is gone,
// within its time left and one more validity.
func awaitPush(ctx context.Context, server *redis.Client, key string, left time.Duration) (keyChange, time.Time,
	error) {
	deadline := time.Now().Add(left + rueidislayout.KeyValidity)
	for last := left; time.Now().Before(deadline); {
		now, err := server.PTTL(ctx, key).Result()
		at := time.Now()
		switch {
		case err != nil:
			return "", at, lab.Failed("observe", fmt.Errorf("PTTL %s: %w", key, err))
		case now < 0:
			return deleted, at, nil
		case now > last+time.Second:
			return pushed, at, nil
		}
		last = now
		if err := lab.Sleep(ctx, 5*time.Millisecond); err != nil {
			return "", at, err
		}
	}
	return "", time.Now(), lab.NoFault("A's key %s was neither pushed nor gone within %v", key,
		left+rueidislayout.KeyValidity)
}
