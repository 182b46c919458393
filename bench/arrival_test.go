package bench

import (
	"context"
	"math"
	"testing"
	"time"
)

// fakeClock jumps to whatever time it is asked to sleep until, and ends at stop.
type fakeClock struct{ now, stop time.Time }

func (c *fakeClock) Now() time.Time { return c.now }
func (c *fakeClock) SleepUntil(_ context.Context, t time.Time) bool {
	if t.After(c.stop) {
		c.now = c.stop
		return false
	}
	c.now = t
	return true
}

// dispatchFor runs the dispatcher for span of fake time and returns what it sent.
func dispatchFor(t *testing.T, kind string, rate float64, span time.Duration, queue int) ([]time.Time, int64) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := &fakeClock{now: start, stop: start.Add(span)}
	arrival, err := NewArrival(kind, rate, 42)
	if err != nil {
		t.Fatal(err)
	}
	q := make(chan time.Time, queue)
	_, dropped := dispatch(context.Background(), clock, arrival, start, q)
	close(q)
	var times []time.Time
	for tm := range q {
		times = append(times, tm)
	}
	return times, dropped
}

func TestConstantArrivalKeepsTheRate(t *testing.T) {
	const rate, span = 2000.0, 10 * time.Second
	times, dropped := dispatchFor(t, "constant", rate, span, 1<<16)
	if want := int(rate * span.Seconds()); len(times) != want || dropped != 0 {
		t.Errorf("sent %d (dropped %d) in %v at %v/s, want exactly %d", len(times), dropped, span, rate, want)
	}
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap != 500*time.Microsecond {
			t.Fatalf("gap %d = %v, want 500us", i, gap)
		}
	}
}

func TestPoissonArrivalKeepsTheRateOnAverage(t *testing.T) {
	const rate, span = 1000.0, 60 * time.Second
	times, _ := dispatchFor(t, "poisson", rate, span, 1<<17)
	want := rate * span.Seconds()
	// 60000 expected arrivals: the Poisson standard deviation is about 245 (0.4%).
	if dev := math.Abs(float64(len(times))-want) / want; dev > 0.02 {
		t.Errorf("sent %d in %v at %v/s: %.2f%% off", len(times), span, rate, 100*dev)
	}
	t.Logf("poisson: %d arrivals, want %.0f", len(times), want)
	again, _ := dispatchFor(t, "poisson", rate, span, 1<<17)
	if len(again) != len(times) || !again[len(again)-1].Equal(times[len(times)-1]) {
		t.Error("the same seed gave a different schedule")
	}
}

func TestFullQueueDropsInsteadOfDelaying(t *testing.T) {
	times, dropped := dispatchFor(t, "constant", 1000, time.Second, 10)
	if len(times) != 10 || dropped != 990 {
		t.Errorf("queue of 10: sent %d, dropped %d; want 10 and 990", len(times), dropped)
	}
}

func TestArrivalRejectsBadRates(t *testing.T) {
	for _, rate := range []float64{0, -5, math.NaN()} {
		if _, err := NewArrival("constant", rate, 1); err == nil {
			t.Errorf("rate %v accepted", rate)
		}
	}
	if _, err := NewArrival("bursty", 10, 1); err == nil {
		t.Error("unknown arrival accepted")
	}
}
