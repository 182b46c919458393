package bench_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/locks"
)

// keyLog is a memLocker that remembers every key asked for.
type keyLog struct {
	memLocker
	mu   sync.Mutex
	keys map[string]bool
}

func (k *keyLog) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	k.mu.Lock()
	k.keys[key] = true
	k.mu.Unlock()
	return k.memLocker.Acquire(ctx, key, ttl)
}

// keysOfShares runs each share [first, first+n) of a load of all clients on its own
// locker and returns the keys each share asked for.
func keysOfShares(t *testing.T, all, keys int, shares [][2]int) []map[string]bool {
	t.Helper()
	var out []map[string]bool
	for _, s := range shares {
		l := &keyLog{memLocker: memLocker{holders: map[string]string{}}, keys: map[string]bool{}}
		load := bench.Load{Clients: s[1], Keys: keys, TTL: time.Second, KeyPrefix: "p:", FirstClient: s[0], AllClients: all}
		// Until the share asked for as many keys as it can (each client at least once), or a cap.
		budget := bench.Countdown(100_000)
		enough := func() bool {
			l.mu.Lock()
			defer l.mu.Unlock()
			return len(l.keys) < min(s[1], keys) && budget()
		}
		if _, err := bench.RunClosed(context.Background(), l, load, enough); err != nil {
			t.Fatal(err)
		}
		out = append(out, l.keys)
	}
	return out
}

// Shares of one load map global clients to keys as the whole load does: one key is
// the same key in every share; per-client keys are all distinct across shares.
func TestSharesOfALoadKeepItsKeys(t *testing.T) {
	shares := [][2]int{{0, 3}, {3, 2}, {5, 2}} // 7 clients over 3 processes
	one := keysOfShares(t, 7, 1, shares)
	for i, ks := range one {
		if len(ks) != 1 || !ks["p:lock:0"] {
			t.Errorf("keys=1, share %d asked for %v; want only p:lock:0", i, ks)
		}
	}
	seen := map[string]int{}
	for i, ks := range keysOfShares(t, 7, 7, shares) {
		if len(ks) != shares[i][1] {
			t.Errorf("keys=per-client, share %d asked for %d keys, want %d", i, len(ks), shares[i][1])
		}
		for k := range ks {
			seen[k]++
		}
	}
	if len(seen) != 7 {
		t.Errorf("keys=per-client: %d distinct keys over all shares, want 7: %v", len(seen), seen)
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("key %s used by %d shares: per-client keys must not be shared", k, n)
		}
	}
}

func TestAShareOutsideItsLoadIsRefused(t *testing.T) {
	load := bench.Load{Clients: 3, Keys: 1, TTL: time.Second, FirstClient: 5, AllClients: 7}
	_, err := bench.RunClosed(context.Background(), &memLocker{}, load, bench.Countdown(1))
	if err == nil || !strings.Contains(err.Error(), "outside the 7 clients") {
		t.Errorf("share [5, 8) of 7 clients: error %v", err)
	}
}
