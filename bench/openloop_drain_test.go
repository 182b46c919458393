package bench_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/bench"
)

// overloadedKey runs 20 requests a second at one key held 100 ms each (twice what the
// key can serve) for 500 ms: the queue is still long when the arrivals stop.
func overloadedKey(t *testing.T, open bench.Open) bench.OpenResult {
	t.Helper()
	m := &memLocker{holders: map[string]string{}}
	load := bench.Load{Clients: 16, Keys: 1, TTL: time.Minute, Hold: 100 * time.Millisecond,
		RetryDelay: time.Millisecond}
	open.Rate, open.Arrival, open.Seed, open.For = 20, "constant", 1, 500*time.Millisecond
	res, err := bench.RunOpen(context.Background(), m, load, open, bench.RealClock{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Without a drain the requests still waiting when the arrivals stop are cut off, so
// the longest waits are missing; with one every request due is served and timed.
func TestRunOpenDrainsTheRequestsDue(t *testing.T) {
	cut := overloadedKey(t, bench.Open{})
	if cut.Granted >= cut.Sent { // one key held 100 ms serves at most 5 in 500 ms
		t.Fatalf("no drain: sent %d, granted %d: the queue did not outlast the arrivals", cut.Sent, cut.Granted)
	}
	drained := overloadedKey(t, bench.Open{Drain: time.Minute})
	if drained.CutOffAttempts != 0 || drained.CutOffHolds != 0 || drained.Granted != drained.Sent {
		t.Errorf("drain: sent %d, granted %d, cut off %d attempts and %d holds; want every request served",
			drained.Sent, drained.Granted, drained.CutOffAttempts, drained.CutOffHolds)
	}
	if timed := drained.AcquireWait.TotalCount(); timed != drained.Sent {
		t.Errorf("%d waits timed of %d requests sent: the queue's tail was not timed", timed, drained.Sent)
	}
}

// The requests due in Discard (at 50, 100 and 150 ms of a constant 20/s) are served
// but recorded apart: every request sent is either discarded or measured.
func TestRunOpenDiscardsItsFirstPart(t *testing.T) {
	res := overloadedKey(t, bench.Open{Discard: 200 * time.Millisecond, Drain: time.Minute})
	if res.Discarded != 3 || res.Granted+res.Discarded != res.Sent {
		t.Errorf("sent %d: %d discarded, %d measured; want 3 discarded and the rest measured", res.Sent,
			res.Discarded, res.Granted)
	}
}

// A loop whose deadline comes before its discarded part ends measured nothing: an error,
// never a cell over a negative duration (a busy machine's setup once ate a 400 ms cell).
func TestRunOpenRefusesARunWhoseMeasuredPartNeverBegan(t *testing.T) {
	m := &memLocker{holders: map[string]string{}}
	load := bench.Load{Clients: 2, Keys: 1, TTL: time.Minute, RetryDelay: time.Millisecond, NoWarm: true}
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	open := bench.Open{Rate: 20, Arrival: "constant", Seed: 1, Discard: time.Second}
	_, err := bench.RunOpen(ctx, m, load, open, bench.RealClock{})
	if !errors.Is(err, bench.ErrNothingMeasured) {
		t.Errorf("deadline before the measured part: %v, want %v", err, bench.ErrNothingMeasured)
	}
}

// A negative span is refused before anything runs: it names the spans it was given.
func TestRunOpenRefusesANegativeSpan(t *testing.T) {
	m := &memLocker{holders: map[string]string{}}
	load := bench.Load{Clients: 1, Keys: 1, TTL: time.Minute, NoWarm: true}
	open := bench.Open{Rate: 20, Arrival: "constant", Seed: 1, For: -time.Second}
	if _, err := bench.RunOpen(context.Background(), m, load, open, bench.RealClock{}); err == nil ||
		!strings.Contains(err.Error(), "negative span (for -1s") {
		t.Errorf("For -1s: %v, want the negative span named", err)
	}
}
