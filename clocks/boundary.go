package clocks

import (
	"math"
	"time"
)

// DefaultDrift is redsync's drift factor: the share of the TTL it assumes clocks lose.
const DefaultDrift = 0.01

// RedlockRace is one race on N independent nodes between holder A and challenger B,
// as redsync plays it. A's acquire starts at Start; its key lands on each node it
// holds SetDelay later. redsync then believes the lock is A's until
// Start + TTL - TTL x drift (its validity, expiry - elapsed - expiry x drift, counted
// from the end of the acquire). Each node expires A's key by its own clock. B holds
// the lock once a quorum of nodes is free for it and its acquire (Challenge long)
// returns. All times are real, since the models' start.
type RedlockRace struct {
	TTL       time.Duration
	Drift     float64     // 0 means DefaultDrift
	Nodes     []*Timeline // one per node
	Held      []bool      // which nodes A's key is on; nil means all of them
	Start     time.Duration
	SetDelay  time.Duration
	Challenge time.Duration
	// LeavesAt, when above 0, is when A is done and leaves, if before its validity
	// ends: a holder of a hold shorter than its lease.
	LeavesAt time.Duration
}

// RaceOutcome says whether B can hold the lock while A still believes it holds it.
type RaceOutcome struct {
	Quorum     int
	ValidUntil time.Duration // A's belief ends: its validity, or LeavesAt if sooner
	// EarliestB is the first time B's acquire could return holding a quorum; Never
	// when A's keys do not expire on enough nodes within ten TTLs.
	EarliestB time.Duration
	// Overlap is ValidUntil - EarliestB: positive means two holders are possible.
	Overlap time.Duration
}

// Never marks a time that does not come within the horizon.
const Never = time.Duration(math.MaxInt64)

// Violation says two holders are possible.
func (o RaceOutcome) Violation() bool { return o.EarliestB != Never && o.Overlap > 0 }

func (r RedlockRace) drift() float64 {
	if r.Drift == 0 {
		return DefaultDrift
	}
	return r.Drift
}

// Outcome computes the race. It is a pure function of the race.
func (r RedlockRace) Outcome() RaceOutcome {
	n := len(r.Nodes)
	out := RaceOutcome{Quorum: n/2 + 1}
	out.ValidUntil = r.Start + r.TTL - time.Duration(float64(r.TTL)*r.drift())
	if r.LeavesAt > 0 && r.LeavesAt < out.ValidUntil {
		out.ValidUntil = r.LeavesAt
	}
	setAt := r.Start + r.SetDelay
	horizon := setAt + 10*r.TTL
	// free[i] is when node i can take B's key: at once if A never held it.
	var free []time.Duration
	for i, tl := range r.Nodes {
		if r.Held != nil && !r.Held[i] {
			free = append(free, r.Start)
			continue
		}
		if at, ok := tl.ExpiresAt(setAt, r.TTL, horizon); ok {
			free = append(free, at)
		}
	}
	if len(free) < out.Quorum {
		out.EarliestB = Never
		return out
	}
	sortDurations(free)
	out.EarliestB = free[out.Quorum-1] + r.Challenge
	out.Overlap = out.ValidUntil - out.EarliestB
	return out
}

func sortDurations(d []time.Duration) {
	for i := 1; i < len(d); i++ {
		for j := i; j > 0 && d[j] < d[j-1]; j-- {
			d[j], d[j-1] = d[j-1], d[j]
		}
	}
}

// Timelines starts one timeline per model.
func Timelines(models []Model) []*Timeline {
	out := make([]*Timeline, len(models))
	for i, m := range models {
		out[i] = NewTimeline(m)
	}
	return out
}

// JumpOn returns n models where the first k jump forward by j at real time at.
func JumpOn(n, k int, j, at time.Duration) []Model {
	out := make([]Model, n)
	for i := 0; i < k && i < n; i++ {
		out[i] = Model{Jumps: []Jump{{At: at, By: j}}}
	}
	return out
}

// FastOn returns n models where the first k run at rate r from the start.
func FastOn(n, k int, r float64) []Model {
	out := make([]Model, n)
	for i := 0; i < k && i < n; i++ {
		out[i] = Model{Rate: r}
	}
	return out
}

// SmallestBreaking finds, to within tol, the smallest x in [lo, hi] for which breaks
// holds, assuming breaks is monotone (false below a threshold, true above). False if
// it does not hold even at hi.
func SmallestBreaking(lo, hi, tol float64, breaks func(x float64) bool) (float64, bool) {
	if !breaks(hi) {
		return 0, false
	}
	if breaks(lo) {
		return lo, true
	}
	for hi-lo > tol {
		mid := lo + (hi-lo)/2
		if breaks(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

// RaceShape is what a jump or rate prediction needs besides the clocks.
type RaceShape struct {
	Nodes     int
	Held      []bool // nil: A holds every node
	TTL       time.Duration
	Drift     float64
	SetDelay  time.Duration
	Challenge time.Duration
	// JumpAt is when the jumps happen, real time after A's acquire started.
	JumpAt time.Duration
}

func (s RaceShape) race(models []Model) RedlockRace {
	return RedlockRace{TTL: s.TTL, Drift: s.Drift, Nodes: Timelines(models), Held: s.Held, SetDelay: s.SetDelay,
		Challenge: s.Challenge}
}

// SmallestBreakingJump is the smallest forward jump on k nodes (the first k) that lets
// B hold the lock while A believes it holds it, to within a microsecond; false if no
// jump up to the TTL does.
func (s RaceShape) SmallestBreakingJump(k int) (time.Duration, bool) {
	x, ok := SmallestBreaking(0, float64(s.TTL), float64(time.Microsecond), func(j float64) bool {
		return s.race(JumpOn(s.Nodes, k, time.Duration(j), s.JumpAt)).Outcome().Violation()
	})
	return time.Duration(x), ok
}

// SmallestBreakingRate is the smallest rate on k nodes (the first k) that lets B hold
// the lock while A believes it holds it, to within 1e-6; false if no rate up to 10 does.
func (s RaceShape) SmallestBreakingRate(k int) (float64, bool) {
	return SmallestBreaking(1, 10, 1e-6, func(r float64) bool {
		return s.race(FastOn(s.Nodes, k, r)).Outcome().Violation()
	})
}
