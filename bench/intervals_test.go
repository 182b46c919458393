package bench

import (
	"testing"
	"time"
)

func TestSplitPlacesTimesInTheirInterval(t *testing.T) {
	s := newRecorderSplit(Intervals{Count: 4, Every: 10 * time.Millisecond})
	start := s.begin()
	for _, tc := range []struct {
		at   time.Duration
		want int
	}{{-time.Millisecond, 0}, {0, 0}, {9 * time.Millisecond, 0}, {10 * time.Millisecond, 1}, {35 * time.Millisecond, 3}, {time.Hour, 3}} {
		if got := s.index(start.Add(tc.at)); got != tc.want {
			t.Errorf("%v after the start: interval %d, want %d", tc.at, got, tc.want)
		}
	}
	// A run of 43ms: three full intervals and a last one that also takes the overrun.
	var sum time.Duration
	for i, want := range []time.Duration{10, 10, 10, 13} {
		got := s.elapsed(i, 43*time.Millisecond)
		if got != want*time.Millisecond {
			t.Errorf("interval %d lasted %v, want %v", i, got, want*time.Millisecond)
		}
		sum += got
	}
	if sum != 43*time.Millisecond {
		t.Errorf("intervals add up to %v, want the run's 43ms", sum)
	}
	// A run cut short leaves the later intervals empty, not negative.
	if got := s.elapsed(3, 15*time.Millisecond); got != 0 {
		t.Errorf("interval 3 of a 15ms run lasted %v, want 0", got)
	}
}

func TestUnsplitRunKeepsOneRecording(t *testing.T) {
	s := newRecorderSplit(Intervals{})
	s.begin()
	if len(s.parts) != 1 || s.index(time.Now().Add(time.Hour)) != 0 || s.elapsed(0, time.Second) != time.Second {
		t.Errorf("an unsplit run has %d parts", len(s.parts))
	}
	if res := lockResult(s, time.Second); res.Intervals != nil {
		t.Errorf("an unsplit run reports %d intervals", len(res.Intervals))
	}
}
