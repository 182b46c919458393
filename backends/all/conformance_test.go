package all_test

import (
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
)

// Every strategy of every store, on its own shared deployment, keeps the counter exact.
func TestEveryStrategyConforms(t *testing.T) {
	for _, name := range locks.Strategies() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			spec, err := locks.TopologyFor(name)
			if err != nil {
				t.Fatal(err)
			}
			// Speed bounds are not what conformance tests.
			l, _ := lockstest.SharedStrategy(t, name, lockstest.PatientOptions())
			lockstest.ConformanceAt(t, l, counterTTL(spec.Kind), 8, 25)
		})
	}
}

// counterTTL is the counter locks' TTL: 2 s, short enough that a partial lock a failed
// Redlock attempt leaked blocks the others briefly; 30 s on a consensus store, whose
// lease is a session (ZooKeeper's closes when one reply takes 2/3 of it: at 10 s it did
// at load 20-37) or a lease a grant, txn and revoke must fit in (etcd's).
func counterTTL(kind backend.Kind) time.Duration {
	if backend.KindIs[backend.Consensus](linked.Catalog(), kind) {
		return 30 * time.Second
	}
	return 2 * time.Second
}
