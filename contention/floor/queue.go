package floor

import "github.com/lockbench/lockbench/contention"

// Queue is one key's M/G/1 queue.
type Queue struct {
	Key      int     // 0 is the hottest
	Share    float64 // p_k: the share of requests that lock this key
	Rate     float64 // lambda_k = lambda p_k, locks a second
	Rho      float64 // lambda_k E[S]: the share of time the key is held, and P(wait > 0)
	MeanWait Wait    // Pollaczek-Khinchine: lambda_k E[S^2] / (2 (1 - rho_k))
}

// Saturated says the key is asked for more holding than a second holds.
func (q Queue) Saturated() bool { return q.Rho >= 1 }

// KeyQueue is key i's queue at rate locks a second over keys, held by hold.
func KeyQueue(rate float64, keys *contention.Keys, hold contention.Hold, i int) Queue {
	p := keys.Prob(i)
	l := rate * p
	return Queue{Key: i, Share: p, Rate: l, Rho: l * hold.MeanSeconds(),
		MeanWait: PKMeanWait(l, hold.MeanSeconds(), hold.SecondMoment())}
}

// PKMeanWait is the Pollaczek-Khinchine mean wait of an M/G/1 queue of arrival rate
// lambda and service moments m1 = E[S], m2 = E[S^2]; unbounded when lambda m1 >= 1.
func PKMeanWait(lambda, m1, m2 float64) Wait {
	rho := lambda * m1
	if rho >= 1 {
		return Unbounded
	}
	return Wait(lambda * m2 / (2 * (1 - rho)))
}

// eachKeyClass calls f once per set of keys sharing one probability p (count of them):
// once for uniform keys however many, once per key of one copy for Zipf (each key's
// twins in the other copies share its probability).
func eachKeyClass(keys *contention.Keys, f func(first int, p float64, count int)) {
	if keys.Uniform() {
		f(0, keys.Prob(0), keys.N())
		return
	}
	for i := range keys.N() / keys.Copies() {
		f(i, keys.Prob(i), keys.Copies())
	}
}
