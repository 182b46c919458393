package netem

import (
	"testing"
	"time"
)

// The estimate settles at the median of what it sees, whatever the outliers.
func TestWakeLeadTracksTheMedianNotOutliers(t *testing.T) {
	l := newWakeLead(0, time.Millisecond)
	for i := range 2000 {
		late := 50 * time.Microsecond
		switch i % 4 {
		case 1:
			late = 20 * time.Microsecond
		case 3:
			late = 30 * time.Millisecond // a preemption: far out, but only one step
		}
		l.observe(late)
	}
	if got := l.get(); got < 40*time.Microsecond || got > 60*time.Microsecond {
		t.Errorf("lead %v after samples with median 50µs", got)
	}
}

func TestWakeLeadStaysWithinItsLimit(t *testing.T) {
	l := newWakeLead(time.Second, 100*time.Microsecond)
	if got := l.get(); got != 100*time.Microsecond {
		t.Errorf("seeded past the limit: %v", got)
	}
	for range 1000 {
		l.observe(time.Second)
	}
	if got := l.get(); got != 100*time.Microsecond {
		t.Errorf("after late wakes: %v, want the limit", got)
	}
	for range 1000 {
		l.observe(-time.Second)
	}
	if got := l.get(); got != 0 {
		t.Errorf("after early wakes: %v, want 0", got)
	}
}
