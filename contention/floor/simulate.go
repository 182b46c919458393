package floor

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/lockbench/lockbench/contention"
)

// A million requests measured take under half a second here; one key at rho 0.7 then
// knows the share above its p99.9 within about 5% (one standard error, ExceedSE).
const (
	DefaultRequests = 1_000_000
	batches         = 20 // batch means: the waits of neighbours are correlated, batches far less
	denseKeys       = 1 << 22
	arrivalStream   = 0x61727276 // "arrv": apart from contention's key and hold streams
)

// SimOptions sizes and seeds a simulation.
type SimOptions struct {
	Requests int    // measured requests; 0: DefaultRequests
	Warmup   int    // requests simulated before measuring, from empty queues; 0: Requests/10
	Seed     uint64 // the same seed gives the same waits
}

// Simulation is the floor waits of requests arriving by a Poisson process, each queued
// FIFO behind its key's earlier requests: per key an M/G/1 queue, simulated exactly by
// Lindley's recursion (a request waits until the previous one's hold ends).
type Simulation struct {
	Options SimOptions
	waits   []float64 // seconds, in arrival order; +Inf on a saturated key
	sorted  []float64
}

// Simulate runs the queues of rate requests a second over keys, holds drawn from hold.
func Simulate(rate float64, keys *contention.Keys, hold contention.Hold, opt SimOptions) (*Simulation, error) {
	if err := checkInput(rate, keys); err != nil {
		return nil, err
	}
	if opt.Requests < 0 || opt.Warmup < 0 {
		return nil, fmt.Errorf("floor: %d requests, %d warm-up: want counts of at least 0", opt.Requests, opt.Warmup)
	}
	if opt.Requests == 0 {
		opt.Requests = DefaultRequests
	}
	if opt.Warmup == 0 {
		opt.Warmup = opt.Requests / 10
	}
	sampler := contention.NewSampler(keys, hold, opt.Seed)
	arrivals := contention.NewRand(opt.Seed, arrivalStream)
	free := newFreeAt(keys.N())
	saturated := 0 // keys below it are saturated: Zipf keys saturate hottest first
	if sat := saturationOf(rate, keys, hold); sat != nil {
		saturated = sat.Keys
	}
	s := &Simulation{Options: opt, waits: make([]float64, 0, opt.Requests)}
	t := 0.0
	for i := range opt.Warmup + opt.Requests {
		t += arrivals.ExpFloat64() / rate
		k, service := sampler.Key(), sampler.HoldSeconds() // both drawn always: streams stay aligned
		w := math.Inf(1)
		if k >= saturated {
			w = max(0, free.at(k)-t)
			free.set(k, t+w+service)
		}
		if i >= opt.Warmup {
			s.waits = append(s.waits, w)
		}
	}
	s.sorted = slices.Clone(s.waits)
	slices.Sort(s.sorted)
	return s, nil
}

// Percentile is the nearest-rank q-th wait, q in (0, 1).
func (s *Simulation) Percentile(q float64) Wait {
	if !(q > 0 && q < 1) {
		return Wait(math.NaN())
	}
	i := int(math.Ceil(q*float64(len(s.sorted)))) - 1
	return Wait(s.sorted[max(i, 0)])
}

// Exceed is the share of requests that waited longer than t seconds.
func (s *Simulation) Exceed(t float64) float64 { return exceedIn(s.sorted, t, true) }

// ExceedSE is Exceed's standard error by batch means.
func (s *Simulation) ExceedSE(t float64) float64 {
	return s.batchSE(func(b []float64) float64 { return exceedIn(b, t, false) })
}

// MeanWait is the mean of the measured waits; unbounded if any key saturated.
func (s *Simulation) MeanWait() Wait { return Wait(mean(s.waits)) }

// MeanWaitSE is MeanWait's standard error by batch means.
func (s *Simulation) MeanWaitSE() float64 { return s.batchSE(mean) }

// batchSE splits the waits, in arrival order, into batches and takes the standard
// deviation of stat over them, over sqrt(batches).
func (s *Simulation) batchSE(stat func([]float64) float64) float64 {
	size := len(s.waits) / batches
	if size == 0 {
		return math.NaN()
	}
	vals := make([]float64, batches)
	for b := range vals {
		vals[b] = stat(s.waits[b*size : (b+1)*size])
	}
	m := mean(vals)
	ss := 0.0
	for _, v := range vals {
		ss += (v - m) * (v - m)
	}
	return math.Sqrt(ss / float64(batches-1) / float64(batches))
}

// exceedIn is the share of xs above t; sorted says xs is sorted (a binary search).
func exceedIn(xs []float64, t float64, sorted bool) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	n := 0
	if sorted {
		n = len(xs) - sort.Search(len(xs), func(i int) bool { return xs[i] > t })
	} else {
		for _, x := range xs {
			if x > t {
				n++
			}
		}
	}
	return float64(n) / float64(len(xs))
}

func mean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// freeAt is when each key's current holds end: a slice, or a map for very many
// uniform keys (a key's entry is written only when a request locks it).
type freeAt struct {
	dense  []float64
	sparse map[int]float64
}

func newFreeAt(n int) *freeAt {
	if n <= denseKeys {
		return &freeAt{dense: make([]float64, n)}
	}
	return &freeAt{sparse: map[int]float64{}}
}

func (f *freeAt) at(k int) float64 {
	if f.dense != nil {
		return f.dense[k]
	}
	return f.sparse[k]
}

func (f *freeAt) set(k int, t float64) {
	if f.dense != nil {
		f.dense[k] = t
	} else {
		f.sparse[k] = t
	}
}
