package workload

import (
	"fmt"
	"math"
	"time"
)

// Keys is how the workload spreads its locks: one global lock (count 1), or one lock
// per entity, the entities chosen uniformly or by a Zipf law (a few hot ones).
type Keys struct {
	Count        int     `yaml:"count"`
	Distribution string  `yaml:"distribution"`            // uniform | zipf
	ZipfExponent float64 `yaml:"zipf_exponent,omitempty"` // zipf only: the share of key k goes as k^-exponent
}

const (
	Uniform = "uniform"
	Zipf    = "zipf"
	// maxZipfKeys bounds the per-key sum a Zipf spread needs; past it the hot keys
	// decide the occupancy anyway.
	maxZipfKeys = 10_000_000
)

// validate checks the spread alone; feasibility needs the rate and hold too.
func (k Keys) validate() (field, msg string) {
	switch {
	case k.Count < 1:
		return ".count", fmt.Sprintf("%d: want 1 (one global lock) or the number of entities locked apart", k.Count)
	case k.Distribution != Uniform && k.Distribution != Zipf:
		return ".distribution", fmt.Sprintf("%q: want uniform or zipf", k.Distribution)
	case k.Distribution == Zipf && !(k.ZipfExponent > 0):
		return ".zipf_exponent",
			fmt.Sprintf("%v: a zipf spread needs an exponent above 0 (1 is the classic law)", k.ZipfExponent)
	case k.Distribution == Uniform && k.ZipfExponent != 0:
		return ".zipf_exponent", "only a zipf spread has it"
	case k.Distribution == Zipf && k.Count > maxZipfKeys:
		return ".count", fmt.Sprintf("%d: a zipf spread is computed key by key, up to %d keys", k.Count, maxZipfKeys)
	}
	return "", ""
}

// Occupancy is what a fault striking at a random moment finds held, when each key's
// lock is a mutex: key k is held a share u_k = rate x share_k x hold of the time
// (its holds cannot overlap, so u_k must stay below 1).
type Occupancy struct {
	// AnyHeld is the chance at least one key is held: 1 - prod(1 - u_k), keys
	// independent. It turns faults into episodes.
	AnyHeld float64
	// LocksHeld is the expected number of keys held: sum u_k = rate x hold. It turns
	// faults into locks broken, each held lock breaking with the measured P.
	LocksHeld float64
	// Busiest is u of the hottest key; BusiestRate its locks a second.
	Busiest, BusiestRate float64
	// FoundHeld is the share of lock requests that find their key held (arrivals see
	// the time averages): sum over keys of key k's share of requests x u_k. Redlock's
	// restart model takes such a request to race for the key when it is freed.
	FoundHeld float64
}

// OccupancyOf computes the occupancy of rate locks a second held for hold each.
func OccupancyOf(rate float64, hold time.Duration, k Keys) Occupancy {
	h := hold.Seconds()
	if k.Distribution != Zipf || k.Count == 1 {
		u := rate * h / float64(k.Count)
		return Occupancy{AnyHeld: 1 - math.Pow(1-math.Min(u, 1), float64(k.Count)), LocksHeld: rate * h, Busiest: u,
			BusiestRate: rate / float64(k.Count),
			FoundHeld:   math.Min(u, 1)}
	}
	norm := 0.0
	for i := 1; i <= k.Count; i++ {
		norm += math.Pow(float64(i), -k.ZipfExponent)
	}
	logFree, foundHeld := 0.0, 0.0 // log of the chance that no key is held
	for i := 1; i <= k.Count; i++ {
		share := math.Pow(float64(i), -k.ZipfExponent) / norm
		u := math.Min(rate*h*share, 1)
		logFree += math.Log1p(-u)
		foundHeld += share * u
	}
	top := rate / norm
	return Occupancy{AnyHeld: 1 - math.Exp(logFree), LocksHeld: rate * h, Busiest: top * h, BusiestRate: top,
		FoundHeld: foundHeld}
}

// infeasible says why the busiest key cannot be a mutex at this rate, or "".
func (o Occupancy) infeasible(hold time.Duration) string {
	if o.Busiest < 1 {
		return ""
	}
	return fmt.Sprintf("infeasible: the busiest key takes %.4g locks/s x %v hold = %.3g s of holding a second, and a "+
		"mutex holds at most 1 s a second: spread the locks over more keys or shorten the hold",
		o.BusiestRate, hold, o.Busiest)
}
