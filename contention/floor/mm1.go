package floor

import (
	"math"

	"github.com/lockbench/lockbench/contention"
)

// mm1 is the exact wait of the key mixture when holds are exponential: key k is M/M/1
// with mu = 1/E[S], and P(W_k > t) = rho_k e^-(mu - lambda_k) t.
type mm1 struct {
	saturated float64   // the share of requests on saturated keys: they always exceed
	weight    []float64 // per class of stable keys: its share of requests x rho
	decay     []float64 // per class: mu - lambda_k
	first     float64   // the decay of the last class's first key: a class spans under eps
}

// newMM1 tabulates the classes once: a percentile evaluates the mixture many times.
func newMM1(rate float64, keys *contention.Keys, mu float64) *mm1 {
	m := &mm1{}
	eachKeyClass(keys, func(_ int, p float64, count int) {
		l := rate * p
		if rho := l / mu; rho >= 1 {
			m.saturated += p * float64(count)
		} else {
			m.add(p*float64(count)*rho, mu-l, 1e-9*mu)
		}
	})
	return m
}

// add appends a class, or merges it into the last one while its decays span less
// than eps: millions of cold Zipf keys then make a few thousand classes, and a
// merged term (at the weighted mean decay) is off by a factor e^(eps t) at most.
func (m *mm1) add(weight, decay, eps float64) {
	last := len(m.weight) - 1
	if last < 0 || math.Abs(decay-m.first) >= eps {
		m.weight, m.decay = append(m.weight, weight), append(m.decay, decay)
		m.first = decay
		return
	}
	sum := m.weight[last] + weight
	m.decay[last] = (m.weight[last]*m.decay[last] + weight*decay) / sum
	m.weight[last] = sum
}

// exceed is P(W > t) over the mixture.
func (m *mm1) exceed(t float64) float64 {
	sum := m.saturated
	for i, w := range m.weight {
		sum += w * math.Exp(-m.decay[i]*t)
	}
	return sum
}

// percentile inverts exceed by bisection: the least t with P(W > t) <= 1 - q.
func (m *mm1) percentile(q float64) Wait {
	tail := 1 - q
	if tail >= m.exceed(0) {
		return 0
	}
	if tail <= m.saturated {
		return Unbounded // the saturated keys alone are more than the tail
	}
	lo, hi := 0.0, 1/m.decay[0] // the hottest key's scale
	for m.exceed(hi) > tail {
		lo, hi = hi, 2*hi
	}
	for hi-lo > 1e-9*hi { // a nanosecond in a second: far below any wait's error
		mid := (lo + hi) / 2
		if m.exceed(mid) > tail {
			lo = mid
		} else {
			hi = mid
		}
	}
	return Wait(hi)
}
