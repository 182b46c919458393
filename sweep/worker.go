package sweep

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
)

// Worker is one load host's part of a run spread over several (`run --worker I/N`):
// it runs the Index-th share of every cell's clients, on keys and a start time
// shared with the other workers, against servers they all target.
type Worker struct {
	Index, Of int
	// StartAt, when set, is when cell 0 starts (its warm-up, then its measured part);
	// each later cell after the warm-up, duration and CellGap of every cell before it.
	// Zero: the workers agree each cell's start through keys on the target.
	StartAt time.Time
	CellGap time.Duration
	// Lead is how far past the last arrival at a rendezvous the agreed start lies, and
	// Wait how long a worker waits there for the others before failing the cell.
	Lead, Wait time.Duration
}

// Defaults for a worker's start agreement.
const (
	DefaultCellGap        = 10 * time.Second
	DefaultRendezvousLead = 300 * time.Millisecond
	DefaultRendezvousWait = 5 * time.Minute
)

// Validate names the first setting that cannot run.
func (w Worker) Validate() error {
	switch {
	case w.Of < 1:
		return fmt.Errorf("worker %d/%d: want at least 1 worker", w.Index, w.Of)
	case w.Index < 0 || w.Index >= w.Of:
		return fmt.Errorf("worker %d/%d: the index counts from 0 and must be below %d", w.Index, w.Of, w.Of)
	case w.CellGap < 0:
		return fmt.Errorf("cell gap = %v: must be >= 0", w.CellGap)
	}
	return nil
}

// Share is this worker's part of a cell of clients: global clients [first, first+n),
// clients/Of each and one more for the first clients%Of workers.
func (w Worker) Share(clients int) (first, n int) {
	base, extra := clients/w.Of, clients%w.Of
	n = base
	if w.Index < extra {
		n++
	}
	return w.Index*base + min(w.Index, extra), n
}

// present is how many workers have clients in a cell of clients: those who meet.
func (w Worker) present(clients int) int { return min(w.Of, clients) }

// scheduled is when cell index's measured part starts under StartAt, in this host's clock.
func (w Worker) scheduled(cfg Config, index int) time.Time {
	slot := cfg.Warmup.D() + cfg.Duration.D() + w.CellGap
	return w.StartAt.Add(time.Duration(index)*slot + cfg.Warmup.D())
}

// tag is the worker's record on its run.
func (w Worker) tag(runID string) resultsdir.WorkerTag {
	return resultsdir.WorkerTag{Index: w.Index, Of: w.Of, RunID: runID}
}
