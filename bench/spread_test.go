package bench_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/contention"
	"github.com/lockbench/lockbench/locks"
)

// grantCounter is a memLocker that counts the grants of each key.
type grantCounter struct {
	memLocker
	grantsMu sync.Mutex
	grants   map[string]int
}

func (g *grantCounter) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	lease, err := g.memLocker.Acquire(ctx, key, ttl)
	if err == nil {
		g.grantsMu.Lock()
		g.grants[key]++
		g.grantsMu.Unlock()
	}
	return lease, err
}

// TestSpreadDrawsKeysByPopularity: with a Zipf spread over 50 keys, 4 clients ask for
// far more keys than their own 4, and the hottest key far more often than the coldest
// (P = 0.22 against 0.0044 at exponent 1: about 450 grants against 9 in 2,000).
func TestSpreadDrawsKeysByPopularity(t *testing.T) {
	keys, err := contention.ZipfKeys(50, 1)
	if err != nil {
		t.Fatal(err)
	}
	g := &grantCounter{memLocker: memLocker{holders: map[string]string{}}, grants: map[string]int{}}
	load := bench.Load{Clients: 4, Keys: 50, TTL: time.Second, Spread: &bench.Spread{Keys: keys, Seed: 7}}
	res, err := bench.RunClosed(context.Background(), g, load, bench.Countdown(2000))
	if err != nil {
		t.Fatal(err)
	}
	if res.Granted != 2000 {
		t.Fatalf("granted %d, want the budget 2000", res.Granted)
	}
	if len(g.grants) <= load.Clients {
		t.Errorf("4 clients asked for %d keys: the spread did not reach past their own", len(g.grants))
	}
	if hot, cold := g.grants["lock:0"], g.grants["lock:49"]; hot <= 10*max(cold, 1) {
		t.Errorf("hottest key granted %d times, coldest %d: not Zipf's popularity", hot, cold)
	}
}

// TestSpreadMustMatchTheLoad: a spread over other keys, or a hold of another mean,
// than the load's own is refused, naming both.
func TestSpreadMustMatchTheLoad(t *testing.T) {
	keys, _ := contention.UniformKeys(10)
	hold, _ := contention.NewHold(contention.Exp, 20*time.Millisecond, 0)
	for name, load := range map[string]bench.Load{
		"spread over 10 keys, load has 5": {Clients: 2, Keys: 5, TTL: time.Second,
			Spread: &bench.Spread{Keys: keys}},
		"spread's hold mean 20ms, load's hold 10ms": {Clients: 2, Keys: 10, TTL: time.Second, Hold: 10 * time.Millisecond,
			Spread: &bench.Spread{Keys: keys, Hold: &hold}},
	} {
		err := load.Validate()
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: got %v", name, err)
		}
	}
	ok := bench.Load{Clients: 2, Keys: 10, TTL: time.Second, Hold: 20 * time.Millisecond,
		Spread: &bench.Spread{Keys: keys, Hold: &hold}}
	if err := ok.Validate(); err != nil {
		t.Errorf("10 keys for 2 clients under a spread: %v", err)
	}
}

// TestHandOffsAreTimedOnlyOnSharedKeys: clients on keys of their own never wait for
// another's release; two clients on one key, each holding 2 ms while the other retries,
// hand it over.
func TestHandOffsAreTimedOnlyOnSharedKeys(t *testing.T) {
	for _, keys := range []int{2, 1} {
		m := &memLocker{holders: map[string]string{}}
		load := bench.Load{Clients: 2, Keys: keys, TTL: time.Second, Hold: 2 * time.Millisecond}
		res, err := bench.RunClosed(context.Background(), m, load, bench.Countdown(20))
		if err != nil {
			t.Fatal(err)
		}
		n := res.Handoff.TotalCount()
		if keys == 2 && n != 0 {
			t.Errorf("keys of their own: %d hand-offs timed", n)
		}
		if keys == 1 && (n == 0 || n > res.Granted) {
			t.Errorf("one key: %d hand-offs in %d grants", n, res.Granted)
		}
	}
}
