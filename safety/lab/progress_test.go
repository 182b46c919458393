package lab

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/lockbench/lockbench/safety/results"
)

// countingScenario runs two variants through RunTrials without servers; each trial
// draws a number from its random source and records it, and ends judged. interrupt,
// when set, is called at the start of every trial with the count of trials run.
type countingScenario struct {
	ran       *int
	interrupt func(ran int)
}

func (countingScenario) Name() string    { return "counting" }
func (countingScenario) Summary() string { return "trials without servers" }
func (countingScenario) Params() []Param { return nil }
func (s countingScenario) Run(ctx context.Context, env *Env, _ Values) (*results.Report, error) {
	var variants []Variant
	for _, name := range []string{"first", "second"} {
		variants = append(variants, Variant{&results.Variant{Name: name, Measure: results.Violations}})
	}
	return RunTrials(ctx, env, variants, func(ctx context.Context, v Variant, t *Trial) error {
		if s.interrupt != nil {
			s.interrupt(*s.ran)
		}
		*s.ran++
		t.Input("draw", float64(t.Rand.Uint64N(1<<20)))
		t.Prove("counted")
		return nil
	})
}

// TrialsOf lists a report's trials by variant, as results.json holds them.
func trialsOf(rep *results.Report) map[string][]results.Trial {
	out := map[string][]results.Trial{}
	for _, v := range rep.Variants {
		out[v.Name] = v.Trials
	}
	return out
}

// TestInterruptedRunKeepsItsTrialsAndResumeRunsOnlyTheRest: a run cut short in its
// fifth trial returns the four before it, handed out after each one; resumed from
// them, it runs the other two only and ends with the trials, seeds and draws of a run
// never stopped.
func TestInterruptedRunKeepsItsTrialsAndResumeRunsOnlyTheRest(t *testing.T) {
	s := countingScenario{ran: new(int)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.interrupt = func(ran int) {
		if ran == 4 {
			cancel()
		}
	}
	var written []string // results.json as it would be after each trial
	env := &Env{Trials: 3, Seed: 9, OnTrial: func(partial *results.Report) {
		b, _ := json.Marshal(partial)
		written = append(written, string(b))
	}}
	partial, err := Run(ctx, s, env)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v, want context.Canceled", err)
	}
	if partial == nil || partial.Complete {
		t.Fatalf("interrupted run returned %+v, want its trials marked incomplete", partial)
	}
	got := trialsOf(partial)
	if len(got["first"]) != 3 || len(got["second"]) != 1 {
		t.Fatalf("kept %d + %d trials, want the 3 + 1 that finished", len(got["first"]), len(got["second"]))
	}
	if len(written) != 4 {
		t.Fatalf("OnTrial heard %d trials, want 4", len(written))
	}
	var lastWritten results.Report
	if err := json.Unmarshal([]byte(written[3]), &lastWritten); err != nil || !reflect.DeepEqual(trialsOf(&lastWritten), trialsOf(partial)) {
		t.Errorf("the trials written after the last one differ from those returned (%v)", err)
	}
	var afterFirst results.Report
	if err := json.Unmarshal([]byte(written[0]), &afterFirst); err != nil || len(afterFirst.Variants) != 1 || afterFirst.Variants[0].Tally.Trials != 1 {
		t.Errorf("after the first trial the report held %+v (%v), want one variant with one trial", afterFirst.Variants, err)
	}

	// Through results.json and back, as a resumed run reads it.
	b, _ := json.Marshal(partial)
	var saved results.Report
	if err := json.Unmarshal(b, &saved); err != nil {
		t.Fatal(err)
	}
	resumed := countingScenario{ran: new(int)}
	rep, err := Run(context.Background(), resumed, &Env{Trials: 3, Seed: 9, Resume: map[string]*results.Report{"counting": &saved}})
	if err != nil {
		t.Fatal(err)
	}
	if *resumed.ran != 2 || !rep.Complete {
		t.Errorf("resumed run ran %d trials (complete %v), want the 2 missing", *resumed.ran, rep.Complete)
	}
	for name, trials := range trialsOf(&saved) {
		kept := trialsOf(rep)[name][:len(trials)]
		if !reflect.DeepEqual(kept, trials) {
			t.Errorf("%s: the trials finished before the interrupt changed:\n%+v\n%+v", name, kept, trials)
		}
	}

	fresh, err := Run(context.Background(), countingScenario{ran: new(int)}, &Env{Trials: 3, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range trialsOf(fresh) {
		have := trialsOf(rep)[name]
		if len(have) != len(want) {
			t.Fatalf("%s: %d trials resumed, %d uninterrupted", name, len(have), len(want))
		}
		for i := range want {
			if have[i].N != want[i].N || have[i].Seed != want[i].Seed || have[i].Inputs["draw"] != want[i].Inputs["draw"] {
				t.Errorf("%s trial %d: resumed (n %d, seed %d, draw %v), uninterrupted (n %d, seed %d, draw %v)", name, i,
					have[i].N, have[i].Seed, have[i].Inputs["draw"], want[i].N, want[i].Seed, want[i].Inputs["draw"])
			}
		}
	}
	if rep.Variant("first").Tally.Judged != 3 || rep.Variant("second").Tally.Judged != 3 {
		t.Errorf("resumed tallies %+v %+v, want 3 judged each", rep.Variant("first").Tally, rep.Variant("second").Tally)
	}
}

// TestResumeRunsATrialWithAnotherSeedAgain: a recorded trial is kept only if it drew
// from the random source this run would give it: the same run seed and trial seed.
func TestResumeRunsATrialWithAnotherSeedAgain(t *testing.T) {
	first, err := Run(context.Background(), countingScenario{ran: new(int)}, &Env{Trials: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := countingScenario{ran: new(int)}
	if _, err := Run(context.Background(), s, &Env{Trials: 1, Seed: 2, Resume: map[string]*results.Report{"counting": first}}); err != nil {
		t.Fatal(err)
	}
	if *s.ran != 2 {
		t.Errorf("ran %d trials, want 2: the recorded ones drew from another run seed", *s.ran)
	}
	// The same run seed but a trial recorded with another trial seed (renamed variant).
	first.Variant("first").Trials[0].Seed++
	s = countingScenario{ran: new(int)}
	if _, err := Run(context.Background(), s, &Env{Trials: 1, Seed: 1, Resume: map[string]*results.Report{"counting": first}}); err != nil {
		t.Fatal(err)
	}
	if *s.ran != 1 {
		t.Errorf("ran %d trials, want 1: only the trial of the other seed", *s.ran)
	}
}
