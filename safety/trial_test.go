package safety

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// TestRunTrialOutcomes: what a trial function returns decides its outcome, and a
// trial that proved nothing is never judged.
func TestRunTrialOutcomes(t *testing.T) {
	env := &Env{Trials: 1, Seed: 1}
	v := &results.Variant{Name: "v", Measure: results.Violations}
	cases := []struct {
		fn   func(ctx context.Context, t *Trial) error
		want results.Outcome
		kind string
	}{
		{func(context.Context, *Trial) error { return nil }, results.Errored, "unproven"},
		{func(_ context.Context, t *Trial) error { t.Prove("seen"); return nil }, results.Judged, ""},
		{func(context.Context, *Trial) error { return NoFault("no promotion") }, results.FaultNotProduced, ""},
		{func(context.Context, *Trial) error {
			return FirstGrant(fmt.Errorf("%w: 0 of 1", locks.ErrNotReplicated))
		}, results.NotGranted, ""},
		{func(context.Context, *Trial) error {
			return FirstGrant(errors.New("NOREPLICAS Not enough good replicas to write."))
		}, results.NotGranted, ""},
		{func(context.Context, *Trial) error { return FirstGrant(errors.New("dial tcp: connection refused")) }, results.Errored, "first-acquire"},
		{func(context.Context, *Trial) error { return Failed("second-acquire", net.ErrClosed) }, results.Errored, "second-acquire"},
		{func(context.Context, *Trial) error { return fmt.Errorf("wait: %w", context.DeadlineExceeded) }, results.Errored, "timeout"},
	}
	for i, c := range cases {
		if err := env.runTrial(context.Background(), "s", v, i, c.fn); err != nil {
			t.Fatal(err)
		}
		got := v.Trials[i]
		if got.Outcome != c.want || got.ErrorKind != c.kind {
			t.Errorf("case %d: outcome %s kind %q (%s), want %s kind %q", i, got.Outcome, got.ErrorKind, got.Message, c.want, c.kind)
		}
	}
	if v.Tally.Judged != 1 || v.Tally.NotGranted != 2 || v.Tally.FaultNotProduced != 1 || v.Tally.Errors["unproven"] != 1 {
		t.Errorf("tally %+v", v.Tally)
	}
	// A run cut short stops at once and records nothing for the trial.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := env.runTrial(ctx, "s", v, 99, func(context.Context, *Trial) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v, want context.Canceled", err)
	}
	if len(v.Trials) != len(cases) {
		t.Errorf("a cancelled trial was recorded")
	}
}

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
	locks.Register(name, topologies.Spec{Kind: topologies.Single}, func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
		built[topo]++
		if built[topo]%2 == 1 {
			return locks.NewSingle(ctx, topo.Masters()[0].Addr(), o.RedisOptions)
		}
		return refusingLocker{redis.NewClient(&redis.Options{Addr: deadAddr, MaxRetries: -1, DialTimeout: time.Second})}, nil
	})
	return name
}()

var deadAddr string

// TestSecondClientConnectionErrorIsAnError: B failing to reach the server is an error
// outcome, never "A kept the lock".
func TestSecondClientConnectionErrorIsAnError(t *testing.T) {
	deadAddr = closedAddr(t)
	env := testEnv(t, 1, Params{"strategies": secondClientDead})
	s, _ := Lookup("pause-past-ttl")
	rep, err := Run(context.Background(), s, env)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rep.Variants {
		if v.Tally.Judged != 0 || v.Tally.Errors["second-acquire"] != 1 {
			t.Errorf("%s: %d judged, errors %s; want B's connection error counted as second-acquire (%v)", v.Name, v.Tally.Judged, v.Tally.ErrorsString(), v.Notes)
		}
	}
}

// TestJudgedOnlyWithProofInHistory: the rule holds whatever the history says.
func TestJudgedOnlyWithProofInHistory(t *testing.T) {
	env := &Env{Trials: 1}
	v := &results.Variant{Name: "v", Measure: results.Violations}
	_ = env.runTrial(context.Background(), "s", v, 0, func(_ context.Context, t *Trial) error {
		t.Rec.Record(history.Event{Client: "A", Kind: history.Entered, Resource: "r"})
		t.Rec.Record(history.Event{Client: "B", Kind: history.Entered, Resource: "r"})
		return nil
	})
	if v.Tally.Judged != 0 || v.Tally.Sums[results.Violations] != 0 {
		t.Errorf("an unproven trial with two holders was judged: %+v", v.Tally)
	}
}

// TestLinearizabilityUnknownIsCounted: a porcupine search that runs out of time is
// counted as unknown in the judged trial, not read as linearizable.
func TestLinearizabilityUnknownIsCounted(t *testing.T) {
	env := &Env{Trials: 1, LinearTimeout: time.Nanosecond}
	v := &results.Variant{Name: "v", Measure: results.Violations}
	_ = env.runTrial(context.Background(), "s", v, 0, func(_ context.Context, t *Trial) error {
		// Many overlapping attempts, every one granted: the search has many orders to try.
		for c := 0; c < 40; c++ {
			id := fmt.Sprintf("c%02d", c)
			t.Rec.Record(history.Event{Client: id, Kind: history.AcquireInvoked, Key: "k"})
		}
		for c := 0; c < 40; c++ {
			id := fmt.Sprintf("c%02d", c)
			t.Rec.Record(history.Event{Client: id, Kind: history.AcquireGranted, Key: "k", Token: id, ValidUntil: time.Now().Add(time.Hour)})
			t.Rec.Record(history.Event{Client: id, Kind: history.Entered, Key: "k", Resource: "r"})
		}
		t.Prove("hand-made history")
		return nil
	})
	if v.Tally.Judged != 1 || v.Tally.Sums[results.LinearUnknown] != 1 || v.Tally.Sums[results.NotLinearizable] != 0 {
		t.Errorf("tally %+v: want one judged trial counted as linearizability_unknown", v.Tally)
	}
}
