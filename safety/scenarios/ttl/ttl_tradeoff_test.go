package ttl

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
)

// The TTL trade-off on a single Redis: labtest.RunScenario asserts every variant's claims (a
// watchdog never lets the key expire under a live holder; a TTL below every hold
// always expires; a crashed holder's lock is never freed before its TTL less the
// measured round trip). Here: the expiry probability falls from the smallest TTL to
// the largest with separate intervals, for every distribution, and the blocked time
// of every crash trial sits at or above that bound. The short TTL is 30 ms: at 10 ms a
// loaded machine's stalls outran the watchdog (every 3.3 ms), and a crash trial found its
// key already gone; sixteen trials keep the intervals apart when a stall leaves some
// unjudged.
func TestTTLTradeoff(t *testing.T) {
	t.Parallel()
	rep := labtest.RunScenario(t, "ttl-tradeoff", 16, lab.Params{"ttls": "30ms,300ms", "hold": "100ms", "hold-max": "1s"})
	for _, s := range rep.Series {
		if !strings.HasPrefix(s.Name, "hold=") || strings.HasSuffix(s.Name, "-watchdog") {
			continue
		}
		if len(s.Points) != 2 {
			t.Fatalf("series %s: %d points, want one per TTL", s.Name, len(s.Points))
		}
		short, long := s.Points[0], s.Points[1]
		if short.Lo <= long.Hi {
			t.Errorf("%s: P(expired mid-work) at TTL %gms is %d of %d (%.2f-%.2f), at %gms %d of %d (%.2f-%.2f): want the short TTL's interval above the long one's",
				s.Name, short.X, short.K, short.N, short.Lo, short.Hi, long.X, long.K, long.N, long.Lo, long.Hi)
		}
	}
	crashes := 0
	for _, v := range rep.Variants {
		if !strings.HasPrefix(v.Name, "crash/") {
			continue
		}
		for _, tr := range v.Trials {
			if tr.Outcome != results.Judged {
				continue
			}
			crashes++
			if tr.Inputs["blocked_ms"] < tr.Inputs["ttl_ms"]-tr.Inputs["tolerance_ms"] {
				t.Errorf("%s trial %d: blocked %.2f ms, below TTL %.0f ms less the measured %.2f ms", v.Name, tr.N, tr.Inputs["blocked_ms"], tr.Inputs["ttl_ms"], tr.Inputs["tolerance_ms"])
			}
		}
	}
	if crashes == 0 {
		t.Error("no crash trial judged")
	}
}

// A key found gone is the work's expiry only when the read came inside the TTL (counted
// from the grant's send) or the work itself outlasted it; a read a TTL late after shorter
// work is the stall's.
func TestAReadStalledPastTheTTLIsNotTheWorks(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		hold, ttl, after time.Duration
		stalled          bool
	}{
		{100 * ms, 300 * ms, 101 * ms, false}, // on time
		{100 * ms, 300 * ms, 434 * ms, true},  // seen under load: 333 ms of stall
		{100 * ms, 300 * ms, 299 * ms, true},  // within Redis's whole-ms expiry of the TTL
		{100 * ms, 10 * ms, 16 * ms, false},   // the work outlasts the TTL: its own expiry
		{10 * ms, 10 * ms, 16 * ms, false},    // work as long as the TTL: its own
		{7 * ms, 10 * ms, 16 * ms, true},      // shorter work, read late
		{100 * ms, 300 * ms, 298 * ms, false}, // the read was inside the TTL
	} {
		if got := stalledPastTTL(tc.hold, tc.ttl, tc.after); got != tc.stalled {
			t.Errorf("hold %v, TTL %v, read %v after the grant was sent: stalled %v, want %v", tc.hold, tc.ttl, tc.after, got, tc.stalled)
		}
	}
}
