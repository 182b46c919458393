package contention

import (
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// MaxZipfKeys bounds a Zipf spread: its sampler keeps one cumulative share per key
// (8 bytes each). The ADR's workload file has the same bound.
const MaxZipfKeys = 10_000_000

// Keys is the popularity of N keys: uniform, or Zipf with exponent s (key i, counted
// from 0 hottest first, is asked with probability (i+1)^-s / sum_j (j+1)^-s).
// Any s > 0 is allowed, s <= 1 included: the table sampler needs no convergence.
// A Zipf popularity may come in copies: C independent copies of a Zipf over N/C keys,
// each copy asked 1/C of the time, so that C times a workload's rate gives each key
// the workload's own arrivals (the ADR's key-copies model).
type Keys struct {
	n      int       // keys in all (copies x the keys of one copy)
	s      float64   // 0: uniform
	copies int       // 1 unless a zipf spec names copies
	norm   float64   // sum_j (j+1)^-s over one copy, zipf only
	cdf    []float64 // cdf[i] = P(key <= i) within one copy, zipf only; cdf[n/copies-1] = 1
}

// ParseKeys reads "uniform", "zipf:1" or "zipf:0.8" over n keys, or "zipf:SxC": C
// copies of a zipf:S over n/C keys each.
func ParseKeys(spec string, n int) (*Keys, error) {
	kind, arg, hasArg := strings.Cut(strings.TrimSpace(spec), ":")
	switch kind {
	case "uniform":
		if hasArg {
			return nil, keysError(spec, "uniform takes no parameter; the number of keys is given apart")
		}
		return uniformKeys(spec, n)
	case "zipf":
		if !hasArg || arg == "" {
			return nil, keysError(spec, "zipf needs its exponent: zipf:S, e.g. zipf:1 (classic) or zipf:0.8")
		}
		exponent, copiesText, hasCopies := arg, "", false
		if i := strings.LastIndex(arg, "x"); i > 0 {
			exponent, copiesText, hasCopies = arg[:i], arg[i+1:], true
		}
		s, err := strconv.ParseFloat(exponent, 64)
		if err != nil {
			return nil, keysError(spec, "exponent %q is not a number", exponent)
		}
		if !hasCopies {
			return zipfKeys(spec, n, s)
		}
		copies, err := strconv.Atoi(copiesText)
		switch {
		case err != nil || copies < 1:
			return nil, keysError(spec, "copies %q: want a whole number of copies from 1, e.g. zipf:1x20", copiesText)
		case n%copies != 0:
			return nil, keysError(spec, "%d keys do not split into %d copies: give copies x the keys of one copy", n,
				copies)
		}
		k, err := zipfKeys(spec, n/copies, s)
		if err != nil {
			return nil, err
		}
		k.n, k.copies = n, copies
		return k, nil
	}
	return nil, keysError(spec, "unknown key popularity %q: want uniform or zipf:S (e.g. zipf:1)", kind)
}

// CopiesIn is the number of copies a spec names (1 when it names none or does not
// parse): the fewest keys it can spread over.
func CopiesIn(spec string) int {
	kind, arg, _ := strings.Cut(strings.TrimSpace(spec), ":")
	i := strings.LastIndex(arg, "x")
	if kind != "zipf" || i <= 0 {
		return 1
	}
	if n, err := strconv.Atoi(arg[i+1:]); err == nil && n > 1 {
		return n
	}
	return 1
}

// UniformKeys spreads requests evenly over n keys.
func UniformKeys(n int) (*Keys, error) { return uniformKeys("uniform", n) }

// ZipfKeys spreads requests over n keys by a Zipf law of exponent s > 0.
func ZipfKeys(n int, s float64) (*Keys, error) {
	return zipfKeys("zipf:"+strconv.FormatFloat(s, 'g', -1, 64), n, s)
}

func uniformKeys(spec string, n int) (*Keys, error) {
	if n < 1 {
		return nil, keysError(spec, "%d keys: want at least 1", n)
	}
	return &Keys{n: n, copies: 1}, nil
}

func zipfKeys(spec string, n int, s float64) (*Keys, error) {
	switch {
	case n < 1:
		return nil, keysError(spec, "%d keys: want at least 1", n)
	case n > MaxZipfKeys:
		return nil, keysError(spec, "%d keys: a zipf spread keeps a table per key, up to %d keys", n, MaxZipfKeys)
	case math.IsNaN(s) || math.IsInf(s, 0) || s <= 0:
		return nil, keysError(spec, "exponent %v: want a finite exponent above 0 (0 would be uniform)", s)
	}
	k := &Keys{n: n, s: s, copies: 1, cdf: make([]float64, n)}
	sum := 0.0
	for i := range n {
		sum += math.Pow(float64(i+1), -s)
		k.cdf[i] = sum
	}
	k.norm = sum
	for i := range k.cdf {
		k.cdf[i] /= sum
	}
	k.cdf[n-1] = 1 // no draw may fall past the last key by rounding
	return k, nil
}

// N is the number of keys, every copy's.
func (k *Keys) N() int { return k.n }

// Copies is how many independent copies of one popularity the keys are (1: one).
func (k *Keys) Copies() int { return k.copies }

// Exponent is the Zipf exponent, 0 for uniform.
func (k *Keys) Exponent() float64 { return k.s }

// Uniform says every key is equally likely.
func (k *Keys) Uniform() bool { return k.s == 0 }

// Prob is the probability that a request locks key i (0 is the hottest); 0 outside [0, N).
func (k *Keys) Prob(i int) float64 {
	switch {
	case i < 0 || i >= k.n:
		return 0
	case k.s == 0:
		return 1 / float64(k.n)
	}
	rank := i % len(k.cdf) // copy i / len(cdf) has the same popularity as the first
	// Direct, not a cdf difference: exact for cold keys.
	return math.Pow(float64(rank+1), -k.s) / k.norm / float64(k.copies)
}

// Sample draws a key index in [0, N) by inverting the cumulative table (copy c's key
// i is c x the keys of one copy + i).
func (k *Keys) Sample(r *rand.Rand) int {
	if k.s == 0 {
		return r.IntN(k.n)
	}
	first := 0
	if k.copies > 1 {
		first = r.IntN(k.copies) * len(k.cdf)
	}
	return first + sort.SearchFloat64s(k.cdf, r.Float64()) // smallest i with cdf[i] >= u
}

// String is the spec that parses back to this popularity (the count is apart).
func (k *Keys) String() string {
	if k.s == 0 {
		return "uniform"
	}
	s := "zipf:" + strconv.FormatFloat(k.s, 'g', -1, 64)
	if k.copies > 1 {
		s += "x" + strconv.Itoa(k.copies)
	}
	return s
}
