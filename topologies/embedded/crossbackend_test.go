package embedded_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/topologies"
	_ "github.com/lockbench/lockbench/topologies/embedded"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// expiryBracket sets a key on node, fires "grant" and polls until the key is gone. It
// returns, in real time since the node's clock started, the predicted expiry range
// (from the SET's round trip) and the observed one: last seen alive, first seen gone.
// Scheduling delays only widen the observed range, never move it.
func expiryBracket(t *testing.T, node topologies.Node, ttl time.Duration) (predLo, predHi, seen, gone time.Duration) {
	t.Helper()
	clock := topologies.NodeClock(node)
	c := redis.NewClient(&redis.Options{Addr: node.Addr(), Protocol: 2, DisableIdentity: true})
	defer c.Close()
	ctx := context.Background()
	c.Ping(ctx) // connect before timing the SET
	setLo := clock.Elapsed()
	if err := c.Set(ctx, "k", "v", ttl).Err(); err != nil {
		t.Fatal(err)
	}
	setHi := clock.Elapsed()
	clock.FireNow("grant")
	horizon := setHi + 10*ttl
	var ok1, ok2 bool
	predLo, ok1 = clock.ExpiresAt(setLo, ttl, horizon)
	predHi, ok2 = clock.ExpiresAt(setHi, ttl, horizon)
	if !ok1 || !ok2 {
		t.Fatal("the model never expires the key")
	}
	seen = setLo
	for clock.Elapsed() < horizon {
		before := clock.Elapsed()
		n, err := c.Exists(ctx, "k").Result()
		after := clock.Elapsed()
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return predLo, predHi, seen, after
		}
		seen = before
		time.Sleep(200 * time.Microsecond)
	}
	t.Fatalf("%s: key still alive at %v, model expiry %v", node.Name(), horizon, predHi)
	return
}

// bracketOn starts spec with provider and brackets a key's expiry on its master; the
// servers stop on every path out, a failed check's included.
func bracketOn(t *testing.T, provider string, spec backend.Spec, ttl time.Duration) (predLo, predHi, seen, gone time.Duration) {
	t.Helper()
	p, err := topologies.ProviderNamed(provider)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	topo, err := p.Start(ctx, spec)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	return expiryBracket(t, topo.Masters()[0], ttl)
}

// Both backends, given the same model, expire a key at the model's time: the observed
// range must overlap the predicted one, within the real backend's resolution
// (libfaketime's offsets are written to the nanosecond; the rate is rebased on the
// process start, which we know to within a few ms, times rate-1).
func TestBothBackendsExpireAtTheModelTime(t *testing.T) {
	testenv.RequireSkewedRedis(t)
	model := clocks.Model{Rate: 1.5, Jumps: []clocks.Jump{{After: "grant", At: 100 * time.Millisecond, By: 300 * time.Millisecond}}}
	spec := backend.Spec{Kind: topologies.Single, Clocks: map[string]clocks.Model{"master-0": model}}
	const ttl = time.Second
	const resolution = 5 * time.Millisecond
	for _, provider := range []string{"process", "embedded"} {
		predLo, predHi, seen, gone := bracketOn(t, provider, spec, ttl)
		t.Logf("%s: predicted expiry %v..%v after start, observed %v..%v", provider, predLo, predHi, seen, gone)
		// A true clock would keep the key 1 s; this model cuts it to (1 s - 0.3 s) / 1.5.
		if seen > predHi+resolution || gone < predLo-resolution {
			t.Errorf("%s: key expired in %v..%v, model says %v..%v (resolution %v)", provider, seen, gone, predLo, predHi, resolution)
		}
	}
}
