package backend

import "time"

// Synthetic is the invented cost report/synth gives a strategy when it writes a
// results folder for tests: only the shape of its numbers (ordering, knees, slopes)
// is realistic.
type Synthetic struct {
	Attempt    time.Duration // median of one uncontended attempt
	RoundTrips float64       // round trips per attempt, scaled by injected latency
	Capacity   float64       // cycles per second the servers sustain
	Topology   string        // the deployment a synthetic run records for it
	// Small puts it in the reduced matrix golden files are drawn from; a strategy
	// added without it stays out of the goldens.
	Small bool
	// Unproxied writes no injected-latency cells: its client dials the addresses its
	// servers announce, which lockbench's proxies do not map.
	Unproxied bool
	OpenLoop  Matrices // where its open-loop cells are written
	SlowNode  SlowNode // whether it gets one-slow-node cells, and what the slow node costs it
}

// Matrices says in which synthetic matrices a kind of cell is written.
type Matrices int

const (
	NoMatrix   Matrices = iota // none
	FullMatrix                 // the full matrix only
	BothMatrix                 // the reduced (golden) matrix too
)

// SlowNode is what one slow node of several costs a strategy's attempt.
type SlowNode int

const (
	NoSlowNode SlowNode = iota // no one-slow-node cells
	// WaitsForSlowNode: every node's answer is awaited, the slow one's round trip too.
	WaitsForSlowNode
	// MajorityWithoutSlowNode: a majority answers without the slow node, a little slower.
	MajorityWithoutSlowNode
)
