// Package clocks is the fake-time layer: a per-node clock model (offset, rate, jumps,
// strobes) and a Clock interface for the harness's own timers. Backends that apply a
// model to a server live with the server (clocks/faketime for redis-server processes,
// topologies/embedded for in-process nodes).
package clocks

import (
	"fmt"
	"math"
	"time"
)

// Model says how one node's clock departs from real time. The zero Model is a true clock.
// Times inside it are real durations since the model started (the node's start).
type Model struct {
	// Offset is how far the node's clock is ahead (negative: behind) from the start.
	Offset time.Duration
	// Rate is node seconds per real second: 1.02 runs 2% fast; 0 means 1.
	Rate float64
	// Jumps step the clock once each, at a time or after a named event.
	Jumps []Jump
	// Strobe makes the offset oscillate; a zero Strobe does nothing.
	Strobe Strobe
	// Seed draws every jitter and the strobe's phase, so a model replays exactly.
	Seed int64
}

// Jump steps a node's clock by By (forward if positive), as an NTP step would.
type Jump struct {
	// At is when it happens: real time since the start, or since event After fired.
	At time.Duration
	// After names an event ("grant", say); empty means At counts from the start.
	After string
	By    time.Duration
	// Jitter adds a seeded uniform delay in [0, Jitter) to At.
	Jitter time.Duration
}

// Strobe is a square wave on the offset: +Amplitude for the first half of each Period,
// 0 for the second half, starting at a seeded phase.
type Strobe struct {
	Amplitude time.Duration
	Period    time.Duration
}

// IsTrue says the model never departs from real time.
func (m Model) IsTrue() bool {
	return m.Offset == 0 && m.rate() == 1 && len(m.Jumps) == 0 && (m.Strobe.Period == 0 || m.Strobe.Amplitude == 0)
}

func (m Model) rate() float64 {
	if m.Rate == 0 {
		return 1
	}
	return m.Rate
}

// Validate names the first field no backend could apply.
func (m Model) Validate() error {
	if m.Rate < 0 || math.IsNaN(m.Rate) || math.IsInf(m.Rate, 0) {
		return fmt.Errorf("clock rate = %v: must be > 0 (0 means 1)", m.Rate)
	}
	for i, j := range m.Jumps {
		if j.At < 0 {
			return fmt.Errorf("clock jump %d: at = %v: must be >= 0", i, j.At)
		}
		if j.Jitter < 0 {
			return fmt.Errorf("clock jump %d: jitter = %v: must be >= 0", i, j.Jitter)
		}
	}
	if m.Strobe.Period < 0 {
		return fmt.Errorf("clock strobe period = %v: must be >= 0", m.Strobe.Period)
	}
	if m.Strobe.Amplitude != 0 && m.Strobe.Period == 0 {
		return fmt.Errorf("clock strobe amplitude %v needs a period > 0", m.Strobe.Amplitude)
	}
	return nil
}

// String describes the model in the words a report uses, e.g. "offset=+1s rate=1.02".
func (m Model) String() string {
	if m.IsTrue() {
		return "true"
	}
	s := ""
	add := func(part string) {
		if s != "" {
			s += " "
		}
		s += part
	}
	if m.Offset != 0 {
		add("offset=" + signed(m.Offset))
	}
	if m.rate() != 1 {
		add(fmt.Sprintf("rate=%g", m.rate()))
	}
	for _, j := range m.Jumps {
		when := fmt.Sprintf("%v", j.At)
		if j.After != "" {
			when = fmt.Sprintf("%s+%v", j.After, j.At)
		}
		if j.Jitter > 0 {
			when += fmt.Sprintf("~%v", j.Jitter)
		}
		add("jump=" + signed(j.By) + "@" + when)
	}
	if m.Strobe.Period > 0 && m.Strobe.Amplitude != 0 {
		add("strobe=" + signed(m.Strobe.Amplitude) + "/" + m.Strobe.Period.String())
	}
	return s
}

// signed writes d with its sign, so that "+1s" and "-1s" read as steps.
func signed(d time.Duration) string {
	if d >= 0 {
		return "+" + d.String()
	}
	return d.String()
}
