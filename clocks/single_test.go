package clocks

import (
	"testing"
	"time"
)

// Hand-computed: the smallest breaking jump is TTL - hold; a jump at it breaks nothing.
func TestSingleJumpThresholdByHand(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		ttl, hold, jump time.Duration
		breaks          bool
	}{
		{30 * time.Second, 50 * ms, 29950 * ms, false}, // the shipped efficiency example's boundary
		{30 * time.Second, 50 * ms, 29951 * ms, true},
		{30 * time.Second, 50 * ms, time.Second, false}, // its largest counted jump
		{300 * ms, 100 * ms, 160 * ms, false},           // 0.8 x (TTL - hold)
		{300 * ms, 100 * ms, 240 * ms, true},            // 1.2 x
	} {
		if got := SingleJumpBreaks(c.ttl, c.hold, c.jump); got != c.breaks {
			t.Errorf("TTL %v, hold %v, jump %v: breaks %v, want %v (threshold %v)", c.ttl, c.hold, c.jump, got, c.breaks, SingleJumpThreshold(c.ttl, c.hold))
		}
	}
}

// The race on one node (a jump 1 ms into the hold, a holder that leaves after its hold,
// instant round trips) breaks from the same jump the closed form gives.
func TestSingleJumpRaceAgreesWithTheThreshold(t *testing.T) {
	ttl, hold := 300*time.Millisecond, 100*time.Millisecond
	j, ok := SmallestBreaking(0, float64(ttl), float64(time.Microsecond), func(x float64) bool {
		race := RedlockRace{TTL: ttl, Drift: 1e-12, Nodes: Timelines(JumpOn(1, 1, time.Duration(x), time.Millisecond)), LeavesAt: hold}
		return race.Outcome().Violation()
	})
	want := SingleJumpThreshold(ttl, hold)
	if !ok || time.Duration(j) < want || time.Duration(j) > want+2*time.Microsecond {
		t.Errorf("smallest breaking jump in the race %v (%v), want %v", time.Duration(j), ok, want)
	}
}
