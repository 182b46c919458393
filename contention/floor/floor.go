package floor

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/lockbench/lockbench/contention"
)

// Floor is the queueing floor of a workload: what its requests wait for held keys
// under a perfect mutex per key (M/G/1 per key, FIFO, Poisson arrivals).
type Floor struct {
	Rate float64 // requests a second, over all keys
	Keys *contention.Keys
	Hold contention.Hold
	// Hottest is key 0's queue, the busiest.
	Hottest Queue
	// Saturation is set when some key has rho >= 1; nil when every key is stable.
	Saturation *Saturation
	// MeanWait is a request's mean wait, sum_k p_k W_k (Pollaczek-Khinchine, any hold).
	MeanWait Wait
	// PWait is the share of requests that wait at all, sum_k p_k min(rho_k, 1).
	PWait float64
	// Method says where percentiles come from: "exact M/M/1" or the simulation's size and seed.
	Method string
	exact  *mm1
	sim    *Simulation
}

// Options chooses the method; the zero value is exact for exponential holds and a
// default-sized simulation with seed 0 otherwise.
type Options struct {
	Sim SimOptions
	// Simulate simulates exponential holds too (their exact figures are its oracle).
	Simulate bool
}

// Compute is the floor of rate requests a second over keys, each held by hold.
func Compute(rate float64, keys *contention.Keys, hold contention.Hold, opt Options) (*Floor, error) {
	if err := checkInput(rate, keys); err != nil {
		return nil, err
	}
	f := &Floor{Rate: rate, Keys: keys, Hold: hold, Hottest: KeyQueue(rate, keys, hold, 0),
		Saturation: saturationOf(rate, keys, hold)}
	m1, m2 := hold.MeanSeconds(), hold.SecondMoment()
	meanWait := 0.0
	eachKeyClass(keys, func(_ int, p float64, count int) {
		l := rate * p
		meanWait += p * float64(count) * float64(PKMeanWait(l, m1, m2)) // +Inf stays +Inf
		f.PWait += p * float64(count) * min(l*m1, 1)
	})
	f.MeanWait = Wait(meanWait)
	if hold.Kind() == contention.Exp && !opt.Simulate {
		f.exact, f.Method = newMM1(rate, keys, 1/m1), "exact M/M/1"
		return f, nil
	}
	sim, err := Simulate(rate, keys, hold, opt.Sim)
	if err != nil {
		return nil, err
	}
	f.sim = sim
	f.Method = fmt.Sprintf("simulated: %d requests after %d warm-up, seed %d",
		sim.Options.Requests, sim.Options.Warmup, sim.Options.Seed)
	return f, nil
}

func checkInput(rate float64, keys *contention.Keys) error {
	if keys == nil {
		return errors.New("floor: no keys")
	}
	if !(rate > 0) || math.IsInf(rate, 1) {
		return fmt.Errorf("floor: rate %v: want a finite rate above 0 requests a second", rate)
	}
	return nil
}

// Percentile is the wait below which a share q of requests stay, q in (0, 1):
// unbounded when the saturated keys' requests alone are more than 1 - q.
func (f *Floor) Percentile(q float64) Wait {
	if !(q > 0 && q < 1) {
		return Wait(math.NaN())
	}
	if f.exact != nil {
		return f.exact.percentile(q)
	}
	return f.sim.Percentile(q)
}

// Exceed is the share of requests whose floor wait is longer than budget: when it is
// above 1 - q, no lock can keep the q-th percentile of its wait within budget.
func (f *Floor) Exceed(budget time.Duration) float64 {
	if f.exact != nil {
		return f.exact.exceed(budget.Seconds())
	}
	return f.sim.Exceed(budget.Seconds())
}

// ExceedSE is Exceed's standard error: 0 when exact.
func (f *Floor) ExceedSE(budget time.Duration) float64 {
	if f.exact != nil {
		return 0
	}
	return f.sim.ExceedSE(budget.Seconds())
}

// Meets says whether a perfect lock could keep the q-th percentile wait within budget.
func (f *Floor) Meets(q float64, budget time.Duration) bool {
	return f.Exceed(budget) <= 1-q
}

func (f *Floor) String() string {
	s := fmt.Sprintf("floor (M/G/1 per key, FIFO, Poisson arrivals) of %.4g/s over %d %s keys, hold %v: "+
		"hottest key rho %.3g, P(wait > 0) %.3g, mean %v, p50 %v, p99 %v, p99.9 %v (%s)",
		f.Rate, f.Keys.N(), f.Keys, f.Hold, f.Hottest.Rho, f.PWait, f.MeanWait,
		f.Percentile(0.5), f.Percentile(0.99), f.Percentile(0.999), f.Method)
	if f.Saturation != nil {
		s += "; " + f.Saturation.String()
	}
	return s
}
