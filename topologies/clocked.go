package topologies

import (
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
