package topologies

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/clocks"
)

// Clocked is a node that can report the model clock it runs on (Spec.Clocks).
type Clocked interface {
	// Clock is the node's model clock, or nil when the node keeps true time.
	Clock() *clocks.NodeClock
}

// NodeClock returns n's model clock, or nil when n keeps true time.
func NodeClock(n Node) *clocks.NodeClock {
	if c, ok := n.(Clocked); ok {
		return c.Clock()
	}
	return nil
}

// FireClockEvent fires event on every skewed node of topo, so that the jumps waiting for
// it ("grant", say) happen now.
func FireClockEvent(topo Topology, event string) {
	for _, n := range topo.Nodes() {
		if c := NodeClock(n); c != nil {
			c.FireNow(event)
		}
	}
}

// NodeNames lists the names of the nodes s starts (after defaults), in start order.
func (s Spec) NodeNames() []string {
	var names []string
	add := func(prefix string, count int) {
		for i := 0; i < count; i++ {
			names = append(names, fmt.Sprintf("%s-%d", prefix, i))
		}
	}
	add("master", s.Masters)
	if s.Kind == Replicated || s.Kind == Sentinel {
		add("replica", s.Replicas)
	}
	if s.Kind == Sentinel {
		add("sentinel", s.Sentinels)
	}
	return names
}

// validateClocks checks that every skewed node exists and its model can be applied.
func (s Spec) validateClocks() error {
	if len(s.Clocks) == 0 {
		return nil
	}
	known := map[string]bool{}
	for _, n := range s.NodeNames() {
		known[n] = true
	}
	names := make([]string, 0, len(s.Clocks))
	for n := range s.Clocks {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !known[n] {
			return fmt.Errorf("clocks: no node %q in this topology (nodes: %s)", n, strings.Join(s.NodeNames(), ", "))
		}
		if err := s.Clocks[n].Validate(); err != nil {
			return fmt.Errorf("clocks: node %s: %w", n, err)
		}
	}
	return nil
}

// ClockSummary describes the skewed nodes, e.g. "master-0: rate=1.02; master-3: jump=+100ms@grant+0s".
func (s Spec) ClockSummary() string {
	names := make([]string, 0, len(s.Clocks))
	for n := range s.Clocks {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ": " + s.Clocks[n].String()
	}
	if len(parts) == 0 {
		return "all true"
	}
	return strings.Join(parts, "; ")
}
