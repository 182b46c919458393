package topologies

import (
	"time"

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

// Lagging is a node whose server clock is advanced from outside (an embedded server),
// so that it stands still while its driver waits for a CPU; a real server reads its own.
type Lagging interface {
	MarkLag()
	MaxLag() time.Duration
}

// MarkClockLag starts a new span for MaxClockLag on every lagging node of topo.
func MarkClockLag(topo Topology) {
	for _, n := range topo.Nodes() {
		if l, ok := n.(Lagging); ok {
			l.MarkLag()
		}
	}
}

// MaxClockLag is the longest any server clock of topo stood behind true time since
// MarkClockLag: a key set in that span lives up to that much less. Zero for servers
// that read their own clock.
func MaxClockLag(topo Topology) time.Duration {
	var most time.Duration
	for _, n := range topo.Nodes() {
		if l, ok := n.(Lagging); ok {
			most = max(most, l.MaxLag())
		}
	}
	return most
}
