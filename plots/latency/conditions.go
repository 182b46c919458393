package latency

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/stats"
)

// byCondition splits groups into sets that share every condition field the key keeps,
// in condition order.
func byCondition(groups []*stats.Group,
	keep func(stats.Condition) stats.Condition) ([]stats.Condition, map[stats.Condition][]*stats.Group) {
	sets := map[stats.Condition][]*stats.Group{}
	var keys []stats.Condition
	for _, g := range groups {
		k := keep(g.Condition)
		if _, ok := sets[k]; !ok {
			keys = append(keys, k)
		}
		sets[k] = append(sets[k], g)
	}
	sort.SliceStable(keys, func(i, j int) bool { return keys[i].Less(keys[j]) })
	return keys, sets
}

// strategiesOf lists the strategies of groups in safety order.
func (s *source) strategiesOf(groups []*stats.Group) []string {
	return stats.Strategies(s.stores, groups)
}

// slug turns condition parts into a file-name-safe suffix.
func slug(parts ...string) string {
	s := strings.Join(parts, "_")
	return strings.NewReplacer("µ", "u", " ", "", "/", "-", "+", "").Replace(s)
}

// metricLabel names a latency metric in axis labels.
func metricLabel(metric string) string {
	if metric == "acquire" {
		return "acquire latency (retries included)"
	}
	return metric + " latency"
}

// titleCase capitalises a metric name for the start of a title.
func titleCase(metric string) string {
	if metric == "" {
		return metric
	}
	return strings.ToUpper(metric[:1]) + metric[1:]
}

// closedWorkload keys a closed-loop cell by its workload alone, whatever its network.
func closedWorkload(c stats.Condition) stats.Condition {
	return stats.Condition{Clients: c.Clients, Keys: c.Keys, Hold: c.Hold, TTL: c.TTL, KeyDist: c.KeyDist,
		HoldDist: c.HoldDist}
}

// workloadSlug names a figure's file after the workload it draws.
func workloadSlug(c stats.Condition) string {
	parts := []string{fmt.Sprintf("clients=%d", c.Clients), fmt.Sprintf("keys=%d", c.Keys), "hold=" + c.Hold.String(),
		"ttl=" + c.TTL.String()}
	if c.KeyDist != "" {
		parts = append(parts, "key-dist="+c.KeyDist)
	}
	if c.HoldDist != "" {
		parts = append(parts, "hold-dist="+c.HoldDist)
	}
	return slug(parts...)
}
