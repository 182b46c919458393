package floor

import (
	"math"
	"strings"
	"testing"
	"time"
)

// 200/s over 12 keys by zipf:1: key 0 takes 200 / H_12 = 64.45 locks/s, held 20 ms
// on average: utilisation 1.29. The floor names that key, and says the 32% of
// requests that lock it wait without bound, by either method.
func TestSaturatedKeyIsReported(t *testing.T) {
	keys := mustKeys(t, "zipf:1", 12)
	for _, spec := range []string{"exp:20ms", "const:20ms"} {
		f, err := Compute(200, keys, mustHold(t, spec), Options{Sim: SimOptions{Requests: testRequests}})
		if err != nil {
			t.Fatal(err)
		}
		s := f.Saturation
		if s == nil {
			t.Fatalf("%s: no saturation reported; hottest rho %v", spec, f.Hottest.Rho)
		}
		if s.Keys != 1 || s.Of != 12 || s.Hottest.Key != 0 || math.Abs(s.Share-keys.Prob(0)) > 1e-15 {
			t.Errorf("%s: %+v", spec, *s)
		}
		says := []string{"key 0 takes 64.45 locks/s", "utilisation 1.29 >= 1", "1 of 12 keys", "32.2% of requests"}
		for _, want := range says {
			if !strings.Contains(f.String(), want) {
				t.Errorf("%s: %q\ndoes not say %q", spec, f.String(), want)
			}
		}
		if !f.MeanWait.IsUnbounded() || !f.Percentile(0.99).IsUnbounded() || f.Percentile(0.5).IsUnbounded() {
			t.Errorf("%s: mean %v p99 %v p50 %v: want unbounded, unbounded, finite",
				spec, f.MeanWait, f.Percentile(0.99), f.Percentile(0.5))
		}
		if e := f.Exceed(time.Hour); e < s.Share-4*f.ExceedSE(time.Hour) { // sampled: within its error
			t.Errorf("%s: %v of requests wait over an hour, fewer than the saturated key's %v", spec, e, s.Share)
		}
	}
	// Uniform keys saturate all at once: every request waits without bound.
	f, err := Compute(100, mustKeys(t, "uniform", 2), mustHold(t, "exp:20ms"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Saturation == nil || f.Saturation.Keys != 2 || f.PWait != 1 || !f.Percentile(0.5).IsUnbounded() {
		t.Errorf("uniform over 2 keys at rho 1: saturation %+v, P(wait) %v, p50 %v", f.Saturation, f.PWait, f.Percentile(0.5))
	}
}

func TestStableFloorHasNoSaturation(t *testing.T) {
	f, err := Compute(100, mustKeys(t, "zipf:1", 10), mustHold(t, "exp:20ms"), Options{})
	if err != nil || f.Saturation != nil || strings.Contains(f.String(), "saturated") {
		t.Errorf("rho 0.68 reported as saturated (%v): %v", err, f)
	}
}

// Meets is the ADR's "no lock can meet this budget": at rho 0.5 on one key, 45% of
// requests wait over 10 ms at the floor, so no p99 within 10 ms; a second is plenty.
func TestMeetsBudget(t *testing.T) {
	f, err := Compute(10, mustKeys(t, "uniform", 1), mustHold(t, "exp:50ms"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Meets(0.99, 10*time.Millisecond) || !f.Meets(0.99, time.Second) {
		t.Errorf("P(wait > 10ms) %v, P(wait > 1s) %v", f.Exceed(10*time.Millisecond), f.Exceed(time.Second))
	}
	// exact: 0.5 e^-(20 - 10) 0.01
	if got, want := f.Exceed(10*time.Millisecond), 0.5*math.Exp(-0.1); math.Abs(got-want) > 1e-15 {
		t.Errorf("P(wait > 10ms) = %v, want %v", got, want)
	}
}

func TestComputeRefusesBadInput(t *testing.T) {
	keys, hold := mustKeys(t, "uniform", 1), mustHold(t, "exp:20ms")
	for _, rate := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := Compute(rate, keys, hold, Options{}); err == nil || !strings.Contains(err.Error(), "rate") {
			t.Errorf("rate %v: %v", rate, err)
		}
	}
	if _, err := Compute(1, nil, hold, Options{}); err == nil {
		t.Error("no keys accepted")
	}
	if _, err := Compute(1, keys, mustHold(t, "const:1ms"), Options{Sim: SimOptions{Warmup: -1}}); err == nil {
		t.Error("a warm-up of -1 accepted")
	}
	f, _ := Compute(1, keys, hold, Options{})
	if p := f.Percentile(1); !math.IsNaN(float64(p)) {
		t.Errorf("p100 %v, want NaN: an exponential wait has no top", p)
	}
}

// Copies keep every key's queue: zipf:1x5 over 50 keys at 5 x the rate has the floor
// of zipf:1 over 10 at the rate, exactly (M/M/1) and within the simulation's noise.
func TestCopiesAtTheirRateKeepTheFloor(t *testing.T) {
	for _, hold := range []string{"exp:20ms", "const:20ms"} {
		one, err := Compute(100, mustKeys(t, "zipf:1", 10), mustHold(t, hold), Options{Sim: SimOptions{Seed: 1}})
		if err != nil {
			t.Fatal(err)
		}
		five, err := Compute(500, mustKeys(t, "zipf:1x5", 50), mustHold(t, hold), Options{Sim: SimOptions{Seed: 1}})
		if err != nil {
			t.Fatal(err)
		}
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(b) }
		if !near(float64(five.MeanWait), float64(one.MeanWait)) || !near(five.PWait, one.PWait) ||
			!near(five.Hottest.Rho, one.Hottest.Rho) {
			t.Errorf("%s: mean wait %v P(wait) %v rho %v, want one copy's %v %v %v", hold, five.MeanWait, five.PWait,
				five.Hottest.Rho, one.MeanWait, one.PWait, one.Hottest.Rho)
		}
		a, _ := one.Percentile(0.99).Duration()
		b, _ := five.Percentile(0.99).Duration()
		if ratio := float64(b) / float64(a); ratio < 0.9 || ratio > 1.1 {
			t.Errorf("%s: p99 floor %v with copies, %v without", hold, b, a)
		}
	}
}
