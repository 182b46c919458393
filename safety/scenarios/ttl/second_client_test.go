package ttl

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/redislock"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/topologies"
)

// refusingLocker is a locker whose every attempt dials a port nobody listens on: a
// real connection error, not a refusal.
type refusingLocker struct{ c *redis.Client }

func (r refusingLocker) Strategy() string { return "test-refusing" }
func (r refusingLocker) Close() error     { return r.c.Close() }
func (r refusingLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	return locks.Lease{}, r.c.SetNX(ctx, key, "x", ttl).Err()
}
func (r refusingLocker) Release(context.Context, locks.Lease) error { return locks.ErrNotHeld }
func (r refusingLocker) Extend(_ context.Context, l locks.Lease, _ time.Duration) (locks.Lease, error) {
	return l, locks.ErrNotHeld
}

// closedAddr is a loopback port that was just free.
func closedAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// secondClientDead registers, once, a strategy whose first locker per topology works
// and whose later ones cannot connect: client B of every trial fails.
var secondClientDead = func() string {
	name := "test-second-client-dead"
	built := map[topologies.Topology]int{}
	build := func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
		built[topo]++
		if built[topo]%2 == 1 {
			return redislock.NewSingle(ctx, topo.Masters()[0].Addr(), o.Options)
		}
		return refusingLocker{redis.NewClient(&redis.Options{Addr: deadAddr, MaxRetries: -1, DialTimeout: time.Second})}, nil
	}
	locks.Register(locks.Strategy{Strategy: backend.Strategy{Name: name}, Spec: backend.Spec{Kind: topologies.Single},
		Build: build})
	return name
}()

var deadAddr string

// TestSecondClientConnectionErrorIsAnError: B failing to reach the server is an error
// outcome, never "A kept the lock". At a 3 s TTL, as TestPausePastTTL: at the default
// 300 ms, load 27, watchdog-slow-work's watchdog ran late and A's slow work outlasted its
// lease, a trial judged before B ever tried.
func TestSecondClientConnectionErrorIsAnError(t *testing.T) {
	t.Parallel()
	deadAddr = closedAddr(t)
	env := labtest.TestEnv(t, 1, lab.Params{"strategies": secondClientDead, "ttl": "3s"})
	s, _ := lab.Lookup("pause-past-ttl")
	rep, err := lab.Run(context.Background(), s, env)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rep.Variants {
		if v.Tally.Judged != 0 || v.Tally.Errors["second-acquire"] != 1 {
			t.Errorf("%s: %d judged, errors %s; want B's connection error counted as second-acquire (%v)", v.Name, v.Tally.Judged, v.Tally.ErrorsString(), v.Notes)
		}
	}
}
