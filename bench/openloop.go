package bench

import (
	"context"
	"errors"
	"fmt"
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
	// Discard is the run's first part: its requests are served, so that every key's
	// queue fills as the load has it, but not recorded.
	Discard time.Duration
	// Drain is how long the clients go on serving the requests already due once the
	// arrivals stop at ctx's deadline: a long wait near the end is timed, not cut off
	// (which would leave the longest waits out). Still unserved after it, they are cut
	// off. 0 stops the clients with the arrivals.
	Drain time.Duration
	// For, when set, is how long requests arrive after Discard, counted from the loop's
	// start once its clients are set up: a slow set-up delays the arrivals instead of
	// eating them, as a deadline in ctx (counted from before it) would.
	For time.Duration
}

// OpenResult adds the open loop's own counts to a Result.
type OpenResult struct {
	Result
	Sent    int64 // requests dispatched on schedule
	Dropped int64 // requests that found the queue full, or were still queued at the end
	// Discarded are the grants of the requests due in Discard: served, not recorded.
	Discarded int64
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
	arrival, err := open.arrival()
	if err != nil {
		return OpenResult{}, err
	}
	if err := warm(ctx, l, load); err != nil {
		return OpenResult{}, err
	}
	keys := load.turns()
	parts := newRecorderSplit(load.Intervals)
	tallies := parts.tallies(load.Clients, NewRecorder)
	discarded := make([]*Recorder, load.Clients) // made on a client's first discarded request
	run := serveOpen(ctx, clock, arrival, open, parts, tallies,
		func(c int) func(context.Context, time.Time, *Recorder) {
			next := load.draws(c)
			return func(ctx context.Context, intended time.Time, rec *Recorder) {
				key, hold := next()
				_, _ = cycle(ctx, l, load, keys, request{key, hold, intended}, rec)
			}
		},
		func(c int) *Recorder {
			if discarded[c] == nil {
				discarded[c] = NewRecorder()
			}
			return discarded[c]
		})
	if err := run.measuredSomething(); err != nil {
		return OpenResult{}, err
	}
	res := OpenResult{Result: lockResult(parts, run.measured), Sent: run.sent, Dropped: run.dropped}
	for _, r := range discarded {
		if r != nil {
			res.Discarded += r.Granted
		}
	}
	return res, nil
}

// arrival checks open's spans and makes its schedule.
func (o Open) arrival() (*Arrival, error) {
	if o.For < 0 || o.Discard < 0 || o.Drain < 0 {
		return nil, fmt.Errorf("open loop: negative span (for %v, discard %v, drain %v)", o.For, o.Discard, o.Drain)
	}
	return NewArrival(o.Arrival, o.Rate, o.Seed)
}

// openRun is what serveOpen counted: requests sent on schedule, dropped (a full queue,
// or never served), and how long the arrivals ran once the measuring began.
type openRun struct {
	sent, dropped int64
	measured      time.Duration
}

// ErrNothingMeasured is an open loop whose deadline came before its measured part began
// (its setup, on a busy machine, outlasted the discarded part and the measured one).
var ErrNothingMeasured = errors.New("nothing measured")

// measuredSomething refuses a run whose measured part never began: a negative span is
// no duration to divide by.
func (r openRun) measuredSomething() error {
	if r.measured > 0 {
		return nil
	}
	return fmt.Errorf("%w: the load's deadline came %v before its measured part began", ErrNothingMeasured, -r.measured)
}

// serveOpen is the open loop both workloads share: arrivals on open's schedule go to
// the clients, client c serving each with the function serveFor(c) made for it, into
// its tally's recording, or, for a request due in open.Discard, into discard(c); when
// the arrivals stop at ctx's deadline the requests due are drained (open.Drain).
func serveOpen[R any](ctx context.Context, clock Clock, arrival *Arrival, open Open, parts *split[R],
	tallies []*tally[R], serveFor func(c int) func(context.Context, time.Time, R), discard func(c int) R) openRun {
	if open.Queue <= 0 {
		open.Queue = 1 << 16
	}
	queue := make(chan time.Time, open.Queue)
	if open.For > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, open.Discard+open.For)
		defer stop()
	}
	clientCtx, stopClients := drainContext(ctx, open.Drain)
	defer stopClients()
	start := clock.Now()
	measured := start.Add(open.Discard)
	parts.start = measured
	wait := startClients(tallies, func(c int, t *tally[R]) {
		serve := serveFor(c)
		for {
			select {
			case <-clientCtx.Done():
				return
			case intended, ok := <-queue:
				if !ok {
					return // the arrivals stopped and every request due was served
				}
				if intended.Before(measured) {
					serve(clientCtx, intended, discard(c))
					continue
				}
				t.moveTo(intended) // a request counts in the interval it was due in
				serve(clientCtx, intended, t.rec)
			}
		}
	})
	sent, dropped := dispatch(ctx, clock, arrival, start, queue)
	end := clock.Now()
	close(queue) // dispatch, its only sender, has returned
	wait()
	return openRun{sent: sent, dropped: dropped + int64(len(queue)), measured: end.Sub(measured)}
}

// drainContext is the clients' context: it ends with ctx when ctx is cancelled, and
// drain after ctx's deadline when it is reached (0: with it).
func drainContext(ctx context.Context, drain time.Duration) (context.Context, context.CancelFunc) {
	clients, cancel := context.WithCancel(context.WithoutCancel(ctx))
	go func() {
		select {
		case <-ctx.Done():
		case <-clients.Done():
			return
		}
		if drain <= 0 || !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			cancel()
			return
		}
		t := time.NewTimer(drain)
		defer t.Stop()
		select {
		case <-t.C:
			cancel()
		case <-clients.Done():
		}
	}()
	return clients, cancel
}
