package floor

import (
	"math"
	"strconv"
	"testing"
)

// The simulation against M/M/1's closed forms: the mean wait, P(wait > 0) = rho, and
// at each exact percentile t_q the simulated share above it is 1 - q; all within 4
// standard errors (batch means) at a fixed seed, so the test gives one answer always.
func TestSimulationMatchesMM1(t *testing.T) {
	for _, c := range []struct {
		name, keys string
		n          int
		rate       float64
	}{
		{"one key, rho 0.7", "uniform", 1, 14},
		{"zipf:1 over 10 keys, hottest rho 0.68", "zipf:1", 10, 100},
		{"zipf:0.8 over 1000 keys", "zipf:0.8", 1000, 400},
	} {
		keys, hold := mustKeys(t, c.keys, c.n), mustHold(t, "exp:20ms")
		exact := newMM1(c.rate, keys, 50)
		sim := mustSimulate(t, c.rate, keys, hold, 1)
		f, err := Compute(c.rate, keys, hold, Options{})
		if err != nil {
			t.Fatal(err)
		}
		withinSE(t, c.name+": mean wait", float64(sim.MeanWait()), float64(f.MeanWait), sim.MeanWaitSE(), 0.05)
		withinSE(t, c.name+": P(wait > 0)", sim.Exceed(0), f.PWait, sim.ExceedSE(0), 0.05)
		for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
			tq := float64(exact.percentile(q))
			if tq == 0 {
				continue // the atom at 0 holds q: P(wait > 0) above checked it
			}
			what := c.name + ": share above exact p" + strconv.FormatFloat(100*q, 'g', -1, 64)
			withinSE(t, what, sim.Exceed(tq), 1-q, sim.ExceedSE(tq), 0.25)
		}
	}
}

// The simulated mean wait is Pollaczek-Khinchine's for holds that are not
// exponential: constant (M/D/1, half M/M/1's) and lognormal (E[S^2] = m^2 e^sigma^2).
func TestSimulationMatchesPKMean(t *testing.T) {
	for _, c := range []struct {
		hold string
		rate float64 // one key
	}{{"const:20ms", 25}, {"const:20ms", 40}, {"lognormal:20ms,0.5", 30}, {"lognormal:20ms,1", 20}} {
		keys, hold := mustKeys(t, "uniform", 1), mustHold(t, c.hold)
		sim := mustSimulate(t, c.rate, keys, hold, 2)
		want := PKMeanWait(c.rate, hold.MeanSeconds(), hold.SecondMoment())
		what := c.hold + " at rho " + strconv.FormatFloat(c.rate*0.02, 'g', 3, 64)
		withinSE(t, what, float64(sim.MeanWait()), float64(want), sim.MeanWaitSE(), 0.05)
		withinSE(t, c.hold+": P(wait > 0)", sim.Exceed(0), c.rate*0.02, sim.ExceedSE(0), 0.05)
	}
}

// M/M/1's percentile by hand: P(W > t) = rho e^-(mu - lambda) t, so at rho 0.5 and
// mu 50/s the p99 is ln(0.5 / 0.01) / 25 s = 156.5 ms.
func TestExactPercentileByHand(t *testing.T) {
	m := newMM1(25, mustKeys(t, "uniform", 1), 50)
	if got, want := float64(m.percentile(0.99)), math.Log(50)/25; math.Abs(got-want) > 1e-9*want {
		t.Errorf("p99 %v, want %v", got, want)
	}
	if got := m.percentile(0.4); got != 0 {
		t.Errorf("p40 %v, want 0: half the requests find the key free", got)
	}
	keys := mustKeys(t, "zipf:1", 50)
	m = newMM1(150, keys, 50) // hottest rho 0.67
	for _, q := range []float64{0.9, 0.99, 0.999} {
		if got := m.exceed(float64(m.percentile(q))); math.Abs(got-(1-q)) > 1e-8*(1-q) {
			t.Errorf("zipf mixture: share above p%v is %v", q, got)
		}
	}
}

// Same seed, same numbers; another seed, other numbers.
func TestSimulationReplaysItsSeed(t *testing.T) {
	keys, hold := mustKeys(t, "zipf:1", 100), mustHold(t, "lognormal:20ms,0.5")
	a, b := mustSimulate(t, 200, keys, hold, 5), mustSimulate(t, 200, keys, hold, 5)
	c := mustSimulate(t, 200, keys, hold, 6)
	for _, q := range []float64{0.5, 0.99, 0.999} {
		if a.Percentile(q) != b.Percentile(q) || a.Percentile(q).IsUnbounded() {
			t.Errorf("seed 5 twice: p%v %v then %v", q, a.Percentile(q), b.Percentile(q))
		}
	}
	if a.MeanWait() != b.MeanWait() || a.MeanWait() == c.MeanWait() {
		t.Errorf("mean waits: seed 5 %v and %v, seed 6 %v", a.MeanWait(), b.MeanWait(), c.MeanWait())
	}
}

// Many uniform keys take the map instead of a slice, with the same model.
func TestManyUniformKeys(t *testing.T) {
	keys, hold := mustKeys(t, "uniform", denseKeys+1), mustHold(t, "exp:20ms")
	s, err := Simulate(1000, keys, hold, SimOptions{Requests: 20_000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Exceed(0) > 0.01 {
		t.Errorf("4M keys at 1000/s: %v of requests waited", s.Exceed(0))
	}
	if _, err := Simulate(1, keys, hold, SimOptions{Requests: -1}); err == nil {
		t.Error("simulated -1 requests")
	}
}

// Cold Zipf keys merge into classes; the mixture stays what the key-by-key sum says.
func TestExactMixtureMergesColdKeys(t *testing.T) {
	keys := mustKeys(t, "zipf:1", 200_000)
	m := newMM1(200, keys, 50)
	if len(m.weight) >= keys.N()/2 {
		t.Errorf("%d classes for %d keys: the cold ones did not merge", len(m.weight), keys.N())
	}
	for _, tt := range []float64{0, 0.01, 0.1, 1} {
		want := 0.0
		for i := range keys.N() {
			l := 200 * keys.Prob(i)
			want += keys.Prob(i) * l / 50 * math.Exp(-(50-l)*tt)
		}
		if got := m.exceed(tt); math.Abs(got-want) > 1e-9*want {
			t.Errorf("P(W > %v) = %v, key by key %v", tt, got, want)
		}
	}
}

// mdOneWait is M/D/1's waiting-time distribution (Crommelin): with hold D and rate
// lambda, P(W <= t) = (1 - rho) sum_{k=0}^{floor(t/D)} (lambda(kD - t))^k / k! e^-lambda(kD - t).
func mdOneWait(lambda, d, t float64) float64 {
	sum, fact := 0.0, 1.0
	for k := 0; float64(k)*d <= t; k++ {
		if k > 0 {
			fact *= float64(k)
		}
		x := lambda * (float64(k)*d - t)
		sum += math.Pow(x, float64(k)) / fact * math.Exp(-x)
	}
	return (1 - lambda*d) * sum
}

// The simulated share above t against M/D/1's exact distribution, at rho 0.5 (the
// efficiency ADR's scheduler: 10/s held 50 ms) and rho 0.8.
func TestSimulationMatchesMD1Distribution(t *testing.T) {
	for _, c := range []struct {
		rate float64
		hold string
		at   []float64
	}{{10, "const:50ms", []float64{0.01, 0.06, 0.15}}, {40, "const:20ms", []float64{0.01, 0.03, 0.05, 0.1}}} {
		hold := mustHold(t, c.hold)
		sim := mustSimulate(t, c.rate, mustKeys(t, "uniform", 1), hold, 3)
		for _, at := range c.at {
			want := 1 - mdOneWait(c.rate, hold.MeanSeconds(), at)
			what := c.hold + " at " + strconv.FormatFloat(c.rate, 'g', -1, 64) + "/s: share above " + Wait(at).String()
			withinSE(t, what, sim.Exceed(at), want, sim.ExceedSE(at), 0.1)
		}
	}
}
