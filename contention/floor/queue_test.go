package floor

import (
	"math"
	"testing"
	"time"
)

// Pollaczek-Khinchine by hand: 10/s on one key held 50 ms (rho 0.5) waits
// lambda E[S^2] / (2 (1 - rho)): 10 x 0.0025 / 1 = 25 ms held constant (M/D/1), twice
// that held exponentially (M/M/1: rho / (mu - lambda) = 0.5 / 10 = 50 ms).
func TestPKMeanWaitByHand(t *testing.T) {
	for _, c := range []struct {
		lambda, m1, m2 float64
		want           Wait
	}{
		{10, 0.05, 0.0025, 0.025},
		{10, 0.05, 0.005, 0.05},
		{0, 0.05, 0.005, 0},
		{20, 0.05, 0.005, Unbounded},
		{30, 0.05, 0.005, Unbounded},
	} {
		if got := PKMeanWait(c.lambda, c.m1, c.m2); math.Abs(float64(got-c.want)) > 1e-15 &&
			!(got.IsUnbounded() && c.want.IsUnbounded()) {
			t.Errorf("PKMeanWait(%v, %v, %v) = %v, want %v", c.lambda, c.m1, c.m2, got, c.want)
		}
	}
}

// Zipf exponent 1 over 3 keys: key 1's share is 3/11, so at 110/s it takes 30 locks/s.
func TestKeyQueueByHand(t *testing.T) {
	q := KeyQueue(110, mustKeys(t, "zipf:1", 3), mustHold(t, "const:10ms"), 1)
	if q.Key != 1 || math.Abs(q.Share-3.0/11) > 1e-15 || math.Abs(q.Rate-30) > 1e-12 || math.Abs(q.Rho-0.3) > 1e-12 {
		t.Errorf("key 1: %+v", q)
	}
	// M/D/1: rho S / (2 (1 - rho)) = 0.3 x 10 ms / 1.4
	if want := 0.003 / 1.4; math.Abs(float64(q.MeanWait)-want) > 1e-15 {
		t.Errorf("key 1: mean wait %v, want %v", q.MeanWait, want)
	}
}

func TestWaitPrints(t *testing.T) {
	for _, c := range []struct {
		w    Wait
		want string
	}{{0, "0"}, {4.1666e-3, "4.17ms"}, {2.5e-7, "250ns"}, {1.5e-5, "15µs"}, {12.34, "12.3s"}, {Unbounded, "unbounded"}} {
		if got := c.w.String(); got != c.want {
			t.Errorf("Wait(%v) prints %q, want %q", float64(c.w), got, c.want)
		}
	}
	if d, ok := Wait(0.0205).Duration(); !ok || d != 20500*time.Microsecond {
		t.Errorf("20.5 ms as a Duration: %v %v", d, ok)
	}
	if _, ok := Unbounded.Duration(); ok {
		t.Error("an unbounded wait converted to a Duration")
	}
}
