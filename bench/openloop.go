package bench

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/locks"
)

// Open is the open-loop part of a load: requests arrive at Rate per second whatever
// the servers do, and each is timed from its intended start.
type Open struct {
	Rate    float64
	Arrival string // constant or poisson
	Seed    uint64
	// Queue bounds the requests waiting for a free client (default 65536).
	Queue int
}

// OpenResult adds the open loop's own counts to a Result.
type OpenResult struct {
	Result
	Sent    int64 // requests dispatched on schedule
	Dropped int64 // requests that found the queue full, or were still queued at the end
}

// AchievedRate is the rate of completed cycles.
func (r OpenResult) AchievedRate() float64 { return r.CyclesPerSecond() }

// RunOpen runs an open loop until ctx ends: load.Clients workers serve requests
// arriving on open's schedule. Acquire and cycle latencies count from the intended
// start, so queueing behind a slow server shows as latency (as wrk2 does).
func RunOpen(ctx context.Context, l locks.Locker, load Load, open Open, clock Clock) (OpenResult, error) {
	if err := load.Validate(); err != nil {
		return OpenResult{}, err
	}
	arrival, err := NewArrival(open.Arrival, open.Rate, open.Seed)
	if err != nil {
		return OpenResult{}, err
	}
	if open.Queue <= 0 {
		open.Queue = 1 << 16
	}
	if err := warm(ctx, l, load); err != nil {
		return OpenResult{}, err
	}
	queue := make(chan time.Time, open.Queue)
	keys := load.turns()
	parts := newRecorderSplit(load.Intervals)
	tallies := parts.tallies(load.Clients, NewRecorder)
	start := clock.Now()
	parts.start = start
	wait := startClients(tallies, func(c int, t *tally[*Recorder]) {
		next := load.draws(c)
		for {
			select {
			case <-ctx.Done():
				return
			case intended := <-queue:
				t.moveTo(intended) // a request counts in the interval it was due in
				key, hold := next()
				_, _ = cycle(ctx, l, load, keys, request{key, hold, intended}, t.rec)
			}
		}
	})
	sent, dropped := dispatch(ctx, clock, arrival, start, queue)
	wait()
	res := OpenResult{Result: lockResult(parts, clock.Now().Sub(start)), Sent: sent}
	res.Dropped = dropped + int64(len(queue))
	return res, nil
}
