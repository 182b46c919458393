package stats

import (
	"sort"
	"strings"
)

// SafetyRank orders strategies from the least to the most safe, the order a reader
// climbs when paying for guarantees: single, wait, sentinel, cluster*, redlock*, etcd*,
// others. Named here, not taken from the registry: stats reads results folders
// without linking the stores; a Redis Cluster fails over asynchronously as Sentinel
// does, so it sits beside it.
func SafetyRank(strategy string) int {
	switch {
	case strategy == "single":
		return 0
	case strategy == "wait":
		return 1
	case strategy == "sentinel":
		return 2
	case strategy == "cluster", strings.HasPrefix(strategy, "cluster-"):
		return 3
	case IsRedlock(strategy):
		return 4
	case strings.HasPrefix(strategy, "etcd"), strings.HasPrefix(strategy, "zookeeper"):
		return 5
	}
	return 6
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
