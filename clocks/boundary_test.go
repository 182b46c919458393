package clocks

import (
	"math"
	"testing"
	"time"
)

func shape() RaceShape {
	return RaceShape{Nodes: 5, TTL: 8 * time.Second, SetDelay: time.Millisecond, Challenge: 2 * time.Millisecond, JumpAt: 10 * time.Millisecond}
}

func TestTrueClocksNeverBreak(t *testing.T) {
	s := shape()
	o := s.race(make([]Model, 5)).Outcome()
	if o.Violation() {
		t.Fatalf("true clocks: %+v is a violation", o)
	}
	if want := 8*time.Second - 80*time.Millisecond; o.ValidUntil != want {
		t.Errorf("ValidUntil = %v, want TTL x (1 - 0.01) = %v", o.ValidUntil, want)
	}
	if want := 8*time.Second + 3*time.Millisecond; o.EarliestB != want {
		t.Errorf("EarliestB = %v, want set + TTL + challenge = %v", o.EarliestB, want)
	}
}

// With A on all five nodes, B needs three of them: jumps or fast clocks on fewer than
// a quorum can never break the lock, however large.
func TestFewerThanQuorumSkewedNodesNeverBreak(t *testing.T) {
	s := shape()
	for k := 0; k <= 2; k++ {
		if j, ok := s.SmallestBreakingJump(k); ok {
			t.Errorf("k=%d: a jump of %v broke the lock", k, j)
		}
		if r, ok := s.SmallestBreakingRate(k); ok {
			t.Errorf("k=%d: rate %v broke the lock", k, r)
		}
	}
}

// The closed form: B's return must come before A's validity ends, so
// J > SetDelay + drift x TTL + Challenge, and r > TTL / (TTL(1-drift) - SetDelay - Challenge).
func TestSmallestBreakingJumpAndRateMatchTheClosedForm(t *testing.T) {
	s := shape()
	wantJ := s.SetDelay + time.Duration(DefaultDrift*float64(s.TTL)) + s.Challenge // 83 ms
	for k := 3; k <= 5; k++ {
		j, ok := s.SmallestBreakingJump(k)
		if !ok || j < wantJ-time.Microsecond || j > wantJ+2*time.Microsecond {
			t.Errorf("k=%d: smallest breaking jump %v, %v; want %v", k, j, ok, wantJ)
		}
	}
	ttl := s.TTL.Seconds()
	wantR := ttl / (ttl*(1-DefaultDrift) - s.SetDelay.Seconds() - s.Challenge.Seconds())
	r, ok := s.SmallestBreakingRate(3)
	if !ok || math.Abs(r-wantR) > 2e-6 {
		t.Errorf("smallest breaking rate %v, %v; want %v", r, ok, wantR)
	}
	// A larger drift factor buys margin: the threshold must move up.
	s.Drift = 0.05
	r2, ok := s.SmallestBreakingRate(3)
	if !ok || r2 <= r {
		t.Errorf("drift 0.05: smallest breaking rate %v, not above %v", r2, r)
	}
}

// Kleppmann's sequence: A holds nodes 1-3 only (4 and 5 unreachable), so one jump on
// a node A holds is enough.
func TestKleppmannOneJumpIsEnoughWhenAHoldsOnlyAQuorum(t *testing.T) {
	s := shape()
	s.Held = []bool{true, true, true, false, false}
	j, ok := s.SmallestBreakingJump(1)
	if !ok {
		t.Fatal("one jump on a node of a bare quorum never broke the lock")
	}
	if want := s.SetDelay + 80*time.Millisecond + s.Challenge; j < want-time.Microsecond || j > want+2*time.Microsecond {
		t.Errorf("smallest breaking jump %v, want %v", j, want)
	}
}

// A jump so late that A's validity is already over cannot overlap.
func TestJumpAfterValidityEndsIsNoViolation(t *testing.T) {
	s := shape()
	s.JumpAt = 7950 * time.Millisecond // after 8 s - 80 ms - challenge
	if o := s.race(JumpOn(5, 5, time.Second, s.JumpAt)).Outcome(); o.Violation() {
		t.Fatalf("a jump at %v overlapped: %+v", s.JumpAt, o)
	}
	s.JumpAt = 7900 * time.Millisecond
	if o := s.race(JumpOn(5, 5, time.Second, s.JumpAt)).Outcome(); !o.Violation() {
		t.Fatalf("a 1 s jump at %v did not overlap: %+v", s.JumpAt, o)
	}
}

func TestSmallestBreakingNeedsMonotoneAndReportsNone(t *testing.T) {
	if _, ok := SmallestBreaking(0, 10, 0.01, func(float64) bool { return false }); ok {
		t.Error("found a threshold where none exists")
	}
	x, ok := SmallestBreaking(0, 10, 0.001, func(v float64) bool { return v >= 3.25 })
	if !ok || math.Abs(x-3.25) > 0.001 {
		t.Errorf("threshold %v, %v; want 3.25", x, ok)
	}
}
