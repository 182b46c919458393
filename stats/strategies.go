package stats

import (
	"sort"
	"strings"
)

// SafetyRank orders strategies from the least to the most safe, the order a reader
// climbs when paying for guarantees: single, wait, sentinel, redlock*, etcd*, others.
func SafetyRank(strategy string) int {
	switch {
	case strategy == "single":
		return 0
	case strategy == "wait":
		return 1
	case strategy == "sentinel":
		return 2
	case IsRedlock(strategy):
		return 3
	case strings.HasPrefix(strategy, "etcd"), strings.HasPrefix(strategy, "zookeeper"):
		return 4
	}
	return 5
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
