package bench

import (
	"context"
	"fmt"
	"github.com/lockbench/lockbench/internal/sleep"
	"math/rand/v2"
	"time"
)

// Arrival yields the gaps between the intended starts of open-loop requests.
type Arrival struct {
	kind string
	mean time.Duration
	rng  *rand.Rand
}

// NewArrival makes a constant or poisson arrival process of rate requests per second,
// seeded so that a run can be repeated.
func NewArrival(kind string, rate float64, seed uint64) (*Arrival, error) {
	if !(rate > 0) {
		return nil, fmt.Errorf("rate = %v: must be > 0 requests per second", rate)
	}
	if kind != "constant" && kind != "poisson" {
		return nil, fmt.Errorf("arrival %q: want constant or poisson", kind)
	}
	return &Arrival{kind: kind, mean: time.Duration(float64(time.Second) / rate),
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}, nil
}

// Next is the gap to the next intended start.
func (a *Arrival) Next() time.Duration {
	if a.kind == "poisson" {
		return time.Duration(a.rng.ExpFloat64() * float64(a.mean))
	}
	return a.mean
}

// Clock is the little of time the dispatcher needs; tests drive it with a fake.
type Clock interface {
	Now() time.Time
	// SleepUntil waits until t; false if ctx ended first.
	SleepUntil(ctx context.Context, t time.Time) bool
}

// RealClock is the wall clock.
type RealClock struct{}

func (RealClock) Now() time.Time { return time.Now() }
func (RealClock) SleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	return sleep.For(ctx, d)
}

// dispatch sends each request's intended start time to queue, on schedule from start,
// until ctx ends. Times come from the schedule, never from when the previous request
// finished: a slow server cannot slow the arrivals (no coordinated omission). A request
// that finds the queue full is counted as dropped, not delayed.
func dispatch(ctx context.Context, clock Clock, arrival *Arrival, start time.Time, queue chan<- time.Time) (sent,
	dropped int64) {
	next := start
	for {
		next = next.Add(arrival.Next())
		if !clock.SleepUntil(ctx, next) {
			return sent, dropped
		}
		select {
		case queue <- next:
			sent++
		default:
			dropped++
		}
	}
}
