package lab

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/lockbench/lockbench/safety/results"
)

// sideBySide runs two variants through RunVariant, parallel trials at once. Each trial
// draws a number and ends judged, or fault_not_produced for a quarter of the draws. A
// trial whose index is a multiple of 3 finishes only after the next two did, so trials
// finish out of order whenever they run side by side (parallel 3 or more).
type sideBySide struct {
	parallel  int
	interrupt func(n int)     // called as trial n of the first variant starts, when set
	resumed   *results.Report // trials kept from an interrupted run: never run, never waited for
	mu        sync.Mutex
	finished  map[string]chan struct{}
	running   int
	most      int // the most trials seen running at once
}

func newSideBySide(parallel int) *sideBySide {
	return &sideBySide{parallel: parallel, finished: map[string]chan struct{}{}}
}

func (*sideBySide) Name() string    { return "side-by-side" }
func (*sideBySide) Summary() string { return "trials without servers, run side by side" }
func (*sideBySide) Params() []Param { return nil }

func (s *sideBySide) Run(ctx context.Context, env *Env, _ Values) (*results.Report, error) {
	rep := env.NewReport()
	for _, name := range []string{"first", "second"} {
		v := &results.Variant{Name: name, Measure: results.Violations}
		err := env.RunVariant(ctx, s.Name(), v, s.parallel, func(ctx context.Context, t *Trial) error { return s.trial(ctx, env, name, t) })
		if len(v.Trials) > 0 {
			rep.Variants = append(rep.Variants, v)
		}
		if err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// kept says whether trial n of variant comes from the run being resumed.
func (s *sideBySide) kept(variant string, n int) bool {
	if s.resumed == nil || s.resumed.Variant(variant) == nil {
		return false
	}
	for _, tr := range s.resumed.Variant(variant).Trials {
		if tr.N == n {
			return true
		}
	}
	return false
}

// done is the channel closed once trial n of variant finished.
func (s *sideBySide) done(variant string, n int) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := fmt.Sprint(variant, n)
	if s.finished[key] == nil {
		s.finished[key] = make(chan struct{})
	}
	return s.finished[key]
}

func (s *sideBySide) trial(ctx context.Context, env *Env, variant string, t *Trial) error {
	s.mu.Lock()
	s.running++
	s.most = max(s.most, s.running)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running--
		s.mu.Unlock()
		close(s.done(variant, t.N))
	}()
	if s.interrupt != nil && variant == "first" {
		s.interrupt(t.N)
	}
	if s.parallel >= 3 && t.N%3 == 0 {
		for next := t.N + 1; next <= t.N+2 && next < env.Trials; next++ {
			if !env.Shard.Holds(next) || s.kept(variant, next) {
				continue
			}
			select {
			case <-s.done(variant, next):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	draw := t.Rand.Uint64N(1 << 20)
	t.Input("draw", float64(draw))
	if draw%4 == 0 {
		return NoFault("drew %d", draw)
	}
	t.Prove("drew %d", draw)
	return nil
}

// sameTrials fails where got's trials differ from want's in anything but their time.
func sameTrials(t *testing.T, what string, got, want *results.Report) {
	t.Helper()
	for _, wv := range want.Variants {
		gv := got.Variant(wv.Name)
		if gv == nil {
			t.Errorf("%s: no variant %s", what, wv.Name)
			continue
		}
		if len(gv.Trials) != len(wv.Trials) {
			t.Errorf("%s %s: %d trials, want %d", what, wv.Name, len(gv.Trials), len(wv.Trials))
			continue
		}
		for i := range wv.Trials {
			g, w := gv.Trials[i], wv.Trials[i]
			g.Seconds, w.Seconds = 0, 0
			if !reflect.DeepEqual(g, w) {
				t.Errorf("%s %s trial %d:\n got %+v\nwant %+v", what, wv.Name, i, g, w)
			}
		}
		if !reflect.DeepEqual(gv.Notes, wv.Notes) || gv.Tally.Judged != wv.Tally.Judged || gv.Tally.FaultNotProduced != wv.Tally.FaultNotProduced {
			t.Errorf("%s %s: notes %q tally %+v, want %q %+v", what, wv.Name, gv.Notes, gv.Tally, wv.Notes, wv.Tally)
		}
	}
}

// TestParallelTrialsRecordWhatOneAtATimeRecords: three trials at once, finishing out
// of order, leave the report a run one at a time leaves: each trial's index, seed,
// draw, outcome and proof, in trial order, and the report handed out after each trial
// always ends at the next trial in order.
func TestParallelTrialsRecordWhatOneAtATimeRecords(t *testing.T) {
	ctx := context.Background()
	one, err := Run(ctx, newSideBySide(1), &Env{Trials: 8, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	s := newSideBySide(3)
	var heard []int
	three, err := Run(ctx, s, &Env{Trials: 8, Seed: 4, OnTrial: func(partial *results.Report) {
		v := partial.Variants[len(partial.Variants)-1]
		heard = append(heard, v.Trials[len(v.Trials)-1].N)
	}})
	if err != nil {
		t.Fatal(err)
	}
	sameTrials(t, "parallel 3", three, one)
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7}; !slices.Equal(heard, want) {
		t.Errorf("OnTrial heard trials %v, want %v", heard, want)
	}
	if s.most < 2 || s.most > 3 {
		t.Errorf("at most %d trials ran at once, want 2 or 3 (parallel 3)", s.most)
	}
	for _, v := range three.Variants {
		for _, tr := range v.Trials {
			if tr.Outcome == results.Judged && len(tr.Proof) == 0 {
				t.Errorf("%s trial %d judged without a proof", v.Name, tr.N)
			}
		}
	}
}

// TestParallelTrialsStopByWidthWhereOneAtATimeStops: under --until-width the stop is
// decided on the trials in order; trials started past it are dropped.
func TestParallelTrialsStopByWidthWhereOneAtATimeStops(t *testing.T) {
	ctx := context.Background()
	one, err := Run(ctx, newSideBySide(1), &Env{Trials: 60, Seed: 2, UntilWidth: 0.6})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(one.Variants[0].Trials); n == 60 {
		t.Fatalf("one at a time ran all %d trials: the width never stopped it, so the test shows nothing", n)
	}
	four, err := Run(ctx, newSideBySide(4), &Env{Trials: 60, Seed: 2, UntilWidth: 0.6})
	if err != nil {
		t.Fatal(err)
	}
	sameTrials(t, "parallel 4, until width", four, one)
}

// TestParallelTrialsSplitOverWorkers: each worker's share, run three at a time, holds
// the whole run's trials of its indices.
func TestParallelTrialsSplitOverWorkers(t *testing.T) {
	ctx := context.Background()
	whole, err := Run(ctx, newSideBySide(1), &Env{Trials: 9, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		share, err := Run(ctx, newSideBySide(3), &Env{Trials: 9, Seed: 5, Shard: Shard{Index: i, Of: 2}})
		if err != nil {
			t.Fatal(err)
		}
		want := &results.Report{}
		for _, v := range whole.Variants {
			mine := &results.Variant{Name: v.Name, Measure: v.Measure}
			for _, tr := range v.Trials {
				if tr.N%2 == i {
					mine.Add(tr)
					if tr.Outcome != results.Judged {
						mine.Note(fmt.Sprintf("trial %d: %s: %s", tr.N, tr.Outcome, tr.Message))
					}
				}
			}
			want.Variants = append(want.Variants, mine)
		}
		sameTrials(t, fmt.Sprintf("worker %d/2", i), share, want)
	}
}

// TestParallelRunInterruptedKeepsWhatFinishedAndResumes: cut short while several
// trials run, the run keeps every trial that finished, in trial order; resumed three
// at a time, it ends with the trials of a run never stopped.
func TestParallelRunInterruptedKeepsWhatFinishedAndResumes(t *testing.T) {
	whole, err := Run(context.Background(), newSideBySide(1), &Env{Trials: 9, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := newSideBySide(3)
	s.interrupt = func(n int) {
		if n == 5 {
			cancel()
		}
	}
	partial, err := Run(ctx, s, &Env{Trials: 9, Seed: 7})
	if !errors.Is(err, context.Canceled) || partial.Complete {
		t.Fatalf("interrupted run: %v (complete %v), want context.Canceled and an incomplete report", err, partial.Complete)
	}
	kept := partial.Variant("first")
	if kept == nil || len(kept.Trials) == 0 || len(kept.Trials) >= 9 {
		t.Fatalf("interrupted run kept %+v, want some of the first variant's trials", kept)
	}
	var ns []int
	for _, tr := range kept.Trials {
		ns = append(ns, tr.N)
	}
	t.Logf("the interrupted run kept trials %v of the first variant", ns)
	if !slices.IsSortedFunc(kept.Trials, func(a, b results.Trial) int { return a.N - b.N }) {
		t.Errorf("kept trials out of order: %+v", kept.Trials)
	}
	for _, tr := range kept.Trials {
		w := whole.Variant("first").Trials[tr.N]
		if tr.Seed != w.Seed || tr.Inputs["draw"] != w.Inputs["draw"] || tr.Outcome != w.Outcome {
			t.Errorf("kept trial %d: seed %d draw %v %s, the whole run's %d %v %s", tr.N, tr.Seed, tr.Inputs["draw"], tr.Outcome, w.Seed, w.Inputs["draw"], w.Outcome)
		}
	}
	again := newSideBySide(3)
	again.resumed = partial
	resumed, err := Run(context.Background(), again, &Env{Trials: 9, Seed: 7, Resume: map[string]*results.Report{"side-by-side": partial}})
	if err != nil {
		t.Fatal(err)
	}
	sameTrials(t, "resumed three at a time", resumed, whole)
}
