package clocks

import (
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"time"
)

// Timeline is a Model bound to the events that trigger its jumps: it answers what the
// node's clock reads at any real time since the start. Safe for concurrent use.
type Timeline struct {
	model  Model
	jitter []time.Duration // per jump, drawn from the seed
	phase  time.Duration   // strobe phase, drawn from the seed

	mu      sync.RWMutex
	events  map[string]time.Duration // real time each event first fired
	changed chan struct{}            // closed and replaced when an event fires
}

// NewTimeline draws the model's jitters and phase from its seed.
func NewTimeline(m Model) *Timeline {
	rng := rand.New(rand.NewPCG(uint64(m.Seed), 0x6c6f636b62656e63)) // "lockbenc"
	t := &Timeline{model: m, events: map[string]time.Duration{}, changed: make(chan struct{})}
	for _, j := range m.Jumps {
		var d time.Duration
		if j.Jitter > 0 {
			d = time.Duration(rng.Int64N(int64(j.Jitter)))
		}
		t.jitter = append(t.jitter, d)
	}
	if m.Strobe.Period > 0 {
		t.phase = time.Duration(rng.Int64N(int64(m.Strobe.Period)))
	}
	return t
}

// Model returns the model the timeline replays.
func (t *Timeline) Model() Model { return t.model }

// Fire records that event happened at real time at; only its first firing counts.
func (t *Timeline) Fire(event string, at time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, done := t.events[event]; !done {
		t.events[event] = at
		close(t.changed)
		t.changed = make(chan struct{})
	}
}

// Changed is closed when an event next fires, so a backend can reschedule its jumps.
func (t *Timeline) Changed() <-chan struct{} {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.changed
}

// jumpTime is when jump i happens, or false while its event has not fired.
func (t *Timeline) jumpTime(i int) (time.Duration, bool) {
	j := t.model.Jumps[i]
	base := time.Duration(0)
	if j.After != "" {
		t.mu.RLock()
		at, fired := t.events[j.After]
		t.mu.RUnlock()
		if !fired {
			return 0, false
		}
		base = at
	}
	return base + j.At + t.jitter[i], true
}

// Step is the piecewise-constant part of the offset at real time at: the constant
// offset, every jump done by then, and the strobe. The rate's share is not in it.
func (t *Timeline) Step(at time.Duration) time.Duration {
	off := t.model.Offset
	for i, j := range t.model.Jumps {
		if when, ok := t.jumpTime(i); ok && when <= at {
			off += j.By
		}
	}
	if s := t.model.Strobe; s.Period > 0 && s.Amplitude != 0 {
		if (at+t.phase)%s.Period < s.Period/2 {
			off += s.Amplitude
		}
	}
	return off
}

// Reading is how much time the node's clock shows as passed at real time at.
func (t *Timeline) Reading(at time.Duration) time.Duration {
	return scale(at, t.model.rate()) + t.Step(at)
}

// Breakpoints are the real times in (from, to] where Step changes (jumps and strobe
// edges), sorted.
func (t *Timeline) Breakpoints(from, to time.Duration) []time.Duration {
	var out []time.Duration
	for i := range t.model.Jumps {
		if when, ok := t.jumpTime(i); ok && when > from && when <= to {
			out = append(out, when)
		}
	}
	if s := t.model.Strobe; s.Period > 0 && s.Amplitude != 0 {
		// Edges sit where (at+phase) mod Period is 0 (rise) or Period/2 (fall).
		for cycle := (from + t.phase) / s.Period * s.Period; cycle-t.phase <= to; cycle += s.Period {
			for _, e := range []time.Duration{cycle - t.phase, cycle + s.Period/2 - t.phase} {
				if e > from && e <= to {
					out = append(out, e)
				}
			}
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out
}

// ExpiresAt is the real time at which a key set at real time setAt with time-to-live
// ttl expires on this node (Redis expires by its own wall clock), searching up to
// horizon; false if it has not expired by then.
func (t *Timeline) ExpiresAt(setAt, ttl, horizon time.Duration) (time.Duration, bool) {
	target := t.Reading(setAt) + ttl
	start := setAt
	for _, edge := range append(t.Breakpoints(setAt, horizon), horizon) {
		// Within [start, edge) the clock runs linearly from Reading(start).
		r := t.Reading(start)
		if r >= target {
			return start, true
		}
		reach := start + unscale(target-r, t.model.rate())
		if reach < edge {
			return reach, true
		}
		start = edge
	}
	if t.Reading(horizon) >= target {
		return horizon, true
	}
	return 0, false
}

// scale multiplies d by rate without losing nanoseconds for rate 1.
func scale(d time.Duration, rate float64) time.Duration {
	if rate == 1 {
		return d
	}
	return time.Duration(math.Round(float64(d) * rate))
}

// unscale is the real time it takes the node's clock to show d.
func unscale(d time.Duration, rate float64) time.Duration {
	if rate == 1 {
		return d
	}
	return time.Duration(math.Ceil(float64(d) / rate))
}
