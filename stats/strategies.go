package stats

import (
	"math"
	"sort"

	"github.com/lockbench/lockbench/backend"
)

// SafetyRank orders strategies from the least to the most safe, the order a reader
// climbs when paying for guarantees, as each store of stores declared it
// (backend.Strategy): single, wait, sentinel, cluster*, redlock*, etcd* and zookeeper*,
// then the others. A name no store declared, or declared unranked, comes last.
func SafetyRank(stores *backend.Catalog, strategy string) int {
	if st, ok := stores.StrategyOf(strategy); ok && st.SafetyRank != backend.Unranked {
		return int(st.SafetyRank)
	}
	return math.MaxInt
}

// SlowNodeStrategies are the strategies some group measured with one of its nodes
// slow (the one-slow profile, which a strategy's store runs only where it has several
// independent nodes): the cells the slow-node figures compare with their unslowed ones.
func SlowNodeStrategies(groups []*Group) map[string]bool {
	out := map[string]bool{}
	for _, g := range groups {
		if g.Condition.Network == "one-slow" {
			out[g.Strategy] = true
		}
	}
	return out
}

// SortStrategies sorts strategy names by SafetyRank in stores, then by name.
func SortStrategies(stores *backend.Catalog, names []string) {
	sort.Slice(names, func(i, j int) bool {
		ri, rj := SafetyRank(stores, names[i]), SafetyRank(stores, names[j])
		if ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
}
