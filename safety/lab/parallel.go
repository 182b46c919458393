package lab

import (
	"context"
	"sync"

	"github.com/lockbench/lockbench/safety/results"
)

// RunVariant runs v's trials (TrialsOf's: the shard's, stopped by width where asked)
// with up to parallel of them at once, each on a goroutine of its own, and adds their
// outcomes to v in trial order. Trial n keeps its seed, its random source and its key
// whatever parallel is, and v ends with the trials a run one at a time would record:
// under UntilWidth the stop is decided on the trials in order, and a trial started
// past it is dropped unrecorded. 1 (or less) runs them one after another as RunTrial
// does. fn must be safe to run side by side with itself.
//
// When ctx ends, the trials in flight are ended too; every trial that finished is
// still added, in trial order, before RunVariant returns ctx's error.
func (e *Env) RunVariant(ctx context.Context, scenario string, v *results.Variant, parallel int,
	fn func(ctx context.Context, t *Trial) error) error {
	if parallel <= 1 {
		for n := range e.TrialsOf(v) {
			if err := e.RunTrial(ctx, scenario, v, n, fn); err != nil {
				return err
			}
		}
		return nil
	}
	e.markStopping(v)
	ns := e.shardTrials()
	runs := newTrialRuns(ctx, len(ns))
	defer runs.stop()
	go runs.launch(parallel, func(i int) (ranTrial, bool, error) {
		if _, ok := e.resumedTrial(v, ns[i]); ok {
			return ranTrial{}, false, nil
		}
		done, err := e.runOne(runs.ctx, scenario, v.Name, ns[i], fn)
		return done, true, err
	})
	for i, n := range ns {
		if rec, ok := e.resumedTrial(v, n); ok {
			e.replay(scenario, v, rec)
		} else if done, err := runs.await(i); err != nil {
			runs.stop()
			e.keepAfter(scenario, v, ns, i, runs)
			return err
		} else {
			e.finish(scenario, v, done)
		}
		if e.stopsAfter(v, n) {
			return nil
		}
	}
	return nil
}

// trialRuns are one variant's trials started in order, at most a number at once, and
// each one's outcome once it finished.
type trialRuns struct {
	ctx      context.Context // ends every trial in flight: the run's ctx, or a stop
	cancel   context.CancelFunc
	slots    []trialSlot
	launched chan struct{} // closed once launch returns
	running  sync.WaitGroup
}

type trialSlot struct {
	done chan struct{} // closed once the trial finished, or was never run
	ran  ranTrial
	err  error
	real bool // the trial ran (not resumed, not skipped after a stop)
}

func newTrialRuns(ctx context.Context, n int) *trialRuns {
	r := &trialRuns{slots: make([]trialSlot, n), launched: make(chan struct{})}
	r.ctx, r.cancel = context.WithCancel(ctx)
	for i := range r.slots {
		r.slots[i].done = make(chan struct{})
	}
	return r
}

// launch starts run(i) for every slot in order, holding at most parallel running;
// run says whether it ran a trial (false: nothing to run there). After a stop it
// starts no more, and marks the rest done with the stop's error.
func (r *trialRuns) launch(parallel int, run func(i int) (ranTrial, bool, error)) {
	defer close(r.launched)
	free := make(chan struct{}, parallel)
	for i := range r.slots {
		s := &r.slots[i]
		if r.ctx.Err() != nil {
			r.abandon(i)
			return
		}
		select {
		case free <- struct{}{}:
		case <-r.ctx.Done():
			r.abandon(i)
			return
		}
		r.running.Add(1)
		go func() {
			defer r.running.Done()
			defer func() { <-free }()
			defer close(s.done)
			s.ran, s.real, s.err = run(i)
		}()
	}
}

// abandon marks slots from i on done, unrun, with the stop's error.
func (r *trialRuns) abandon(i int) {
	for j := i; j < len(r.slots); j++ {
		r.slots[j].err = r.ctx.Err()
		close(r.slots[j].done)
	}
}

// await is slot i's trial once it finished; the error is the run's end.
func (r *trialRuns) await(i int) (ranTrial, error) {
	<-r.slots[i].done
	return r.slots[i].ran, r.slots[i].err
}

// stop ends the trials in flight and waits for every goroutine launch started.
func (r *trialRuns) stop() {
	r.cancel()
	<-r.launched
	r.running.Wait()
}

// keepAfter adds, in trial order, what an interrupted run still has past slot i: the
// trials that ran to their end before the stop, and those the run being resumed had.
func (e *Env) keepAfter(scenario string, v *results.Variant, ns []int, i int, r *trialRuns) {
	for j := i + 1; j < len(ns); j++ {
		if rec, ok := e.resumedTrial(v, ns[j]); ok {
			e.replay(scenario, v, rec)
		} else if s := &r.slots[j]; s.real && s.err == nil {
			e.finish(scenario, v, s.ran)
		}
	}
}
