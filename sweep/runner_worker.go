package sweep

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
)

// share is the part of cell's clients this runner measures: all of them, or its
// worker's share.
func (r *Runner) share(cell Cell) (first, n int) {
	if r.Worker == nil {
		return 0, cell.Clients
	}
	return r.Worker.Share(cell.Clients)
}

// skipEmptyShare records a cell in which this worker has no clients, and says so.
func (r *Runner) skipEmptyShare(cell Cell) (bool, error) {
	if _, n := r.share(cell); n > 0 {
		return false, nil
	}
	r.Run.Skipped = append(r.Run.Skipped, resultsdir.SkippedCell{
		Name: cell.Name(), Repeat: cell.Repeat, Worker: r.Worker.tag(r.Config.RunID),
		Reason: fmt.Sprintf("a share of 0 of %d clients over %d workers", cell.Clients, r.Worker.Of),
	})
	return true, resultsdir.WriteRun(r.Out, r.Run)
}

// hasSkipped says whether a resumed worker's run already skipped the cell.
func (r *Runner) hasSkipped(cell Cell) bool {
	for _, s := range r.Run.Skipped {
		if s.Name == cell.Name() && s.Repeat == cell.Repeat {
			return true
		}
	}
	return false
}

// workerStart is what a worker agreed and measured before a cell's measured part.
type workerStart struct {
	scheduled time.Time     // the measured part's start, this host's clock; zero: now
	offset    time.Duration // the target's clock minus this host's
}

// agreeStart reads the target's clock and finds when cell index's measured part
// starts: on the --start-at schedule, or as the workers agree at the rendezvous.
func (r *Runner) agreeStart(ctx context.Context, index int, cell Cell, topo topologies.Topology) (workerStart, error) {
	w := r.Worker
	if w == nil {
		return workerStart{}, nil
	}
	z, err := openRendezvous(topo, r.Config.RunID, *w)
	if err != nil {
		return workerStart{}, err
	}
	defer z.Close()
	offset, err := z.clockOffset(ctx)
	if err != nil {
		return workerStart{}, err
	}
	if !w.StartAt.IsZero() {
		at := w.scheduled(r.Config, index)
		if late := time.Since(at.Add(-r.Config.Warmup.D())); late > 0 {
			return workerStart{}, fmt.Errorf(
				"scheduled start %s passed %v ago: give a later --start-at or a longer --cell-gap",
				at.Add(-r.Config.Warmup.D()).Format(time.RFC3339Nano), late.Round(time.Millisecond))
		}
		return workerStart{scheduled: at, offset: offset}, nil
	}
	at, err := z.agree(ctx, index, cell.Name(), w.present(cell.Clients))
	if err != nil {
		return workerStart{}, err
	}
	return workerStart{scheduled: at.Add(r.Config.Warmup.D()), offset: offset}, nil
}

// tagCell marks a measured cell as this worker's share.
func (r *Runner) tagCell(c *resultsdir.Cell, cell Cell, start workerStart, actual time.Time, rate float64) {
	if r.Worker == nil {
		return
	}
	tag := r.Worker.tag(r.Config.RunID)
	tag.FirstClient, tag.Clients = r.share(cell)
	tag.Rate = rate
	tag.ScheduledStart, tag.ActualStart = start.scheduled.UTC(), actual.UTC()
	tag.ClockOffsetToTarget = resultsdir.Duration(start.offset)
	c.Worker = &tag
}

// logTag tags a worker's histogram log lines (worker=1/3); empty for a whole run.
func (r *Runner) logTag() string {
	if r.Worker == nil {
		return ""
	}
	return r.Worker.tag(r.Config.RunID).String()
}

// checkWorker refuses what a worker cannot share: a run id is what its keys and
// rendezvous have in common with the others', and the update workload's rows and
// audit are not split.
func (r *Runner) checkWorker(cells []Cell) error {
	if r.Worker == nil {
		return nil
	}
	if err := r.Worker.Validate(); err != nil {
		return err
	}
	if r.Config.RunID == "" {
		return fmt.Errorf("worker %d/%d: a worker needs a run id shared with the other workers", r.Worker.Index, r.Worker.Of)
	}
	for _, c := range cells {
		if c.Workload == WorkloadUpdate {
			return fmt.Errorf("cell %s: the update workload cannot be split over workers yet", c.Name())
		}
	}
	return nil
}

// closeTopology closes topo, but a worker keeps it until the end of the run: closing
// deletes the run's keys on servers not ours, and the other workers may still be
// meeting or holding locks on them (their next rendezvous counter, say).
func (r *Runner) closeTopology(topo topologies.Topology) {
	if r.Worker == nil {
		r.close(topo)
		return
	}
	r.kept = append(r.kept, topo)
}

// workersDoneGrace is how long after the last agreed end a worker waits before the
// keys go: the others end that cell at the same agreed time, give or take their clocks.
const workersDoneGrace = 2 * time.Second

// closeKept closes a worker's kept topologies once every worker has ended its last
// cell (at once when ctx ended: an interrupted worker cleans up on its way out).
func (r *Runner) closeKept(ctx context.Context) {
	if len(r.kept) == 0 {
		return
	}
	if ctx.Err() == nil && !r.lastEnd.IsZero() {
		sleepUntil(ctx, r.lastEnd.Add(workersDoneGrace))
	}
	for _, t := range r.kept {
		r.close(t)
	}
	r.kept = nil
}

// close closes topo; on servers not ours, where closing deletes the run's keys, a
// failure is kept for the run's error: keys left behind are a broken promise.
func (r *Runner) close(topo topologies.Topology) {
	err := topo.Close()
	if prefix := topologies.KeyPrefixOf(topo); err != nil && prefix != "" {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.unclean = append(r.unclean, fmt.Errorf("keys %s* may be left on the %s servers: %w", prefix, topo.Spec().Kind, err))
	}
}

// cleanupError is every clean-up that failed, or nil.
func (r *Runner) cleanupError() error { return errors.Join(r.unclean...) }

// warmupMargin is how early a worker's warm-up stops before the agreed start: a
// quarter of it, at most 50 ms, for its last cycles to return.
func warmupMargin(warmup time.Duration) time.Duration {
	return min(warmup/4, 50*time.Millisecond)
}
