package bench

import (
	"sync"
	"time"
)

// Intervals cuts a run's recording into Count consecutive pieces of Every each (the
// last also takes whatever runs past Count*Every), so that the noise within one run
// can be measured without stopping the load. A Count below 2 keeps one recording.
type Intervals struct {
	Count int
	Every time.Duration
}

// on says whether the recording is split at all.
func (iv Intervals) on() bool { return iv.Count >= 2 && iv.Every > 0 }

// split is the shared side of Intervals: one recording per interval, fed by clients
// that hand over what they recorded when they move into a later interval.
type split[R any] struct {
	iv    Intervals
	start time.Time
	mu    sync.Mutex
	parts []R
	merge func(into, from R)
	reset func(R)
}

func newSplit[R any](iv Intervals, fresh func() R, merge func(into, from R), reset func(R)) *split[R] {
	n := 1
	if iv.on() {
		n = iv.Count
	}
	s := &split[R]{iv: iv, parts: make([]R, n), merge: merge, reset: reset}
	for i := range s.parts {
		s.parts[i] = fresh()
	}
	return s
}

// index is the interval t falls in; times before the start count in the first.
func (s *split[R]) index(t time.Time) int {
	if !s.iv.on() {
		return 0
	}
	return min(max(int(t.Sub(s.start)/s.iv.Every), 0), s.iv.Count-1)
}

// tally is one client's recording and the interval it belongs to. Clients record
// without locks; only moving to the next interval takes the split's lock.
type tally[R any] struct {
	s   *split[R]
	at  int
	rec R
}

// tallies makes every client's recording before the run starts, so that allocating
// them is not timed.
func (s *split[R]) tallies(clients int, fresh func() R) []*tally[R] {
	out := make([]*tally[R], clients)
	for i := range out {
		out[i] = &tally[R]{s: s, rec: fresh()}
	}
	return out
}

// begin starts the first interval now and returns the time.
func (s *split[R]) begin() time.Time {
	s.start = time.Now()
	return s.start
}

// moveTo makes t's interval the one being recorded, handing over the previous one.
func (c *tally[R]) moveTo(t time.Time) {
	if !c.s.iv.on() {
		return
	}
	if i := c.s.index(t); i != c.at {
		c.handOver()
		c.s.reset(c.rec)
		c.at = i
	}
}

// handOver adds what the client recorded to its current interval.
func (c *tally[R]) handOver() {
	c.s.mu.Lock()
	c.s.merge(c.s.parts[c.at], c.rec)
	c.s.mu.Unlock()
}

// startClients runs work on every client's tally in a goroutine of its own, and hands
// over what the client recorded when work returns; wait returns once every client has.
func startClients[R any](tallies []*tally[R], work func(client int, t *tally[R])) (wait func()) {
	var wg sync.WaitGroup
	for c, t := range tallies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer t.handOver()
			work(c, t)
		}()
	}
	return wg.Wait
}

// elapsed is how long interval i of a run that lasted total ran.
func (s *split[R]) elapsed(i int, total time.Duration) time.Duration {
	if !s.iv.on() {
		return total
	}
	ran := max(total-time.Duration(i)*s.iv.Every, 0)
	if i == s.iv.Count-1 {
		return ran
	}
	return min(ran, s.iv.Every)
}
