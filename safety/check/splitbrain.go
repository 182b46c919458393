package check

import (
	"time"

	"github.com/lockbench/lockbench/safety/history"
)

// NodeWindow is how long one node went on taking probe writes.
type NodeWindow struct {
	Node string `json:"node"`
	// Duration runs from the node's first probe to its last accepted one.
	Duration time.Duration `json:"duration_ns"`
	// StillAccepting: the last probe was accepted too, so the window is a lower bound.
	StillAccepting bool `json:"still_accepting"`
	Probes         int  `json:"probes"`
}

// SplitBrainReport is the verdict of SplitBrain.
type SplitBrainReport struct {
	Windows []NodeWindow `json:"windows,omitempty"`
}

// Longest is the longest window, zero without probes.
func (r SplitBrainReport) Longest() time.Duration {
	var d time.Duration
	for _, w := range r.Windows {
		d = max(d, w.Duration)
	}
	return d
}

// SplitBrain reads the probe writes of each node: a node that a failover demoted but
// that still takes writes is a second master for as long as it does.
func SplitBrain(h history.History) SplitBrainReport {
	var r SplitBrainReport
	index := map[string]int{}
	first := map[string]time.Time{}
	for _, e := range h {
		if e.Kind != history.ProbeWritten {
			continue
		}
		i, ok := index[e.Node]
		if !ok {
			i = len(r.Windows)
			index[e.Node] = i
			r.Windows = append(r.Windows, NodeWindow{Node: e.Node})
			first[e.Node] = e.Time
		}
		w := &r.Windows[i]
		w.Probes++
		w.StillAccepting = e.Accepted
		if e.Accepted {
			w.Duration = e.Time.Sub(first[e.Node])
		}
	}
	return r
}
