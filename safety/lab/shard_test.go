package lab

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/safety/results"
)

// TestShardsTogetherRunTheWholeRunsTrials: three workers' shares of a run, put
// together by trial index, hold every trial of the whole run once, with its seed and
// its draw; each worker ran only the indices n % 3 == its own.
func TestShardsTogetherRunTheWholeRunsTrials(t *testing.T) {
	ctx := context.Background()
	whole, err := Run(ctx, countingScenario{ran: new(int)}, &Env{Trials: 7, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	union := map[string][]results.Trial{}
	for i := range 3 {
		rep, err := Run(ctx, countingScenario{ran: new(int)}, &Env{Trials: 7, Seed: 9, Shard: Shard{Index: i, Of: 3}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.TrialsPerVariant != 7 {
			t.Errorf("worker %d/3: trials_per_variant %d, want the campaign's 7", i, rep.TrialsPerVariant)
		}
		for name, trials := range trialsOf(rep) {
			for _, tr := range trials {
				if tr.N%3 != i {
					t.Errorf("worker %d/3 ran %s trial %d", i, name, tr.N)
				}
			}
			union[name] = append(union[name], trials...)
		}
	}
	for name, want := range trialsOf(whole) {
		got := union[name]
		slices.SortFunc(got, func(a, b results.Trial) int { return a.N - b.N })
		if len(got) != len(want) {
			t.Fatalf("%s: %d trials in the shards, %d in the whole run", name, len(got), len(want))
		}
		for i := range want {
			w, g := want[i], got[i]
			if g.N != w.N || g.Seed != w.Seed || !reflect.DeepEqual(g.Inputs, w.Inputs) || g.Outcome != w.Outcome {
				t.Errorf("%s trial %d: shard has n %d seed %d inputs %v %s, the whole run n %d seed %d inputs %v %s", name, i, g.N, g.Seed, g.Inputs, g.Outcome, w.N, w.Seed, w.Inputs, w.Outcome)
			}
		}
	}
}

// TestShardRefusesWhatCannotBeSplit: a bad share, stopping by width, and a trial
// outside the share (a scenario whose loop bypasses TrialsOf) stop the run.
func TestShardRefusesWhatCannotBeSplit(t *testing.T) {
	ctx := context.Background()
	for _, s := range []Shard{{Index: 3, Of: 3}, {Index: -1, Of: 2}, {Index: 0, Of: -1}} {
		if _, err := Run(ctx, countingScenario{ran: new(int)}, &Env{Trials: 3, Seed: 1, Shard: s}); err == nil || !strings.Contains(err.Error(), "index") {
			t.Errorf("shard %v: %v, want a refusal naming the index", s, err)
		}
	}
	ran := new(int)
	_, err := Run(ctx, countingScenario{ran: ran}, &Env{Trials: 3, Seed: 1, UntilWidth: 0.5, Shard: Shard{Index: 0, Of: 2}})
	if err == nil || !strings.Contains(err.Error(), "width") || *ran != 0 {
		t.Errorf("until-width with a shard: %v after %d trials, want a refusal naming the width before any trial", err, *ran)
	}
	env := &Env{Trials: 3, Seed: 1, Shard: Shard{Index: 1, Of: 2}}
	v := &results.Variant{Name: "v", Measure: results.Violations}
	err = env.RunTrial(ctx, "bisecting", v, 0, func(_ context.Context, t *Trial) error { t.Prove("ran"); return nil })
	if err == nil || !strings.Contains(err.Error(), "not worker 1/2's") || len(v.Trials) != 0 {
		t.Errorf("trial 0 on worker 1/2: %v with %d trials recorded, want a refusal and none", err, len(v.Trials))
	}
}
