package stats

import (
	"math"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/backend"
)

// SafetyRank orders strategies from the least to the most safe, the order a reader
// climbs when paying for guarantees, as each store declared it (backend.Strategy):
// single, wait, sentinel, cluster*, redlock*, etcd* and zookeeper*, then the others.
// The registry is filled by the stores the program links (the command imports
// backends/all); a name no store declared, or declared unranked, comes last.
func SafetyRank(strategy string) int {
	if st, ok := backend.StrategyOf(strategy); ok && st.SafetyRank != backend.Unranked {
		return int(st.SafetyRank)
	}
	return math.MaxInt
}

// IsRedlock says whether a strategy is a Redlock variant (redlock, redlock-failfast...).
func IsRedlock(strategy string) bool { return strings.HasPrefix(strategy, "redlock") }

// SortStrategies sorts strategy names by SafetyRank, then by name.
func SortStrategies(names []string) {
	sort.Slice(names, func(i, j int) bool {
		ri, rj := SafetyRank(names[i]), SafetyRank(names[j])
		if ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
}
