package failover

import (
	"math"
	"sort"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/results"
)

// lossByDelay is the probability the lock was lost against the kill delay, one point
// per delay with its interval.
func lossByDelay(g sentinelrig.Guard, variants []*failoverVariant) results.Series {
	s := results.Series{Name: "mode=" + g.Mode, X: "delay from grant to master kill (ms)", Y: "probability the lock was " +
		"lost"}
	for _, v := range variants {
		if p, ok := results.VariantPoint(lab.Millis(v.delay), v.Result(), results.LostLocks); ok {
			s.Points = append(s.Points, p)
		}
	}
	return s
}

// lossByLagMargin buckets a mode's judged trials by when the promoted replica really
// resumed applying the stream, relative to the master's kill (10 ms buckets): the
// lock should be lost exactly when that margin is positive.
func lossByLagMargin(g sentinelrig.Guard, variants []*failoverVariant) results.Series {
	type bucket struct{ lost, n int }
	buckets := map[int]*bucket{}
	for _, v := range variants {
		for _, tr := range v.Trials {
			margin, ok := tr.Inputs["pause_end_after_kill_promoted_ms"]
			if tr.Outcome != results.Judged || !ok {
				continue
			}
			k := int(math.Floor(margin / 10))
			if buckets[k] == nil {
				buckets[k] = &bucket{}
			}
			buckets[k].n++
			if tr.Counts[results.LostLocks] > 0 {
				buckets[k].lost++
			}
		}
	}
	keys := make([]int, 0, len(buckets))
	for k := range buckets {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	s := results.Series{Name: "mode=" + g.Mode + " by lag", X: "promoted replica's measured pause end minus master kill " +
		"(ms, 10 ms buckets, lower edge)", Y: "probability the lock was lost"}
	for _, k := range keys {
		if p, ok := results.ProbabilityPoint(float64(k*10), buckets[k].lost, buckets[k].n); ok {
			s.Points = append(s.Points, p)
		}
	}
	return s
}
