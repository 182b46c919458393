package suite

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/internal/interrupt"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// fakeScenario runs without servers, for the suite's own loop.
type fakeScenario struct {
	name string
	run  func(ctx context.Context) (*results.Report, error)
}

func (f fakeScenario) Name() string        { return f.name }
func (f fakeScenario) Summary() string     { return "a stand-in" }
func (f fakeScenario) Params() []lab.Param { return nil }
func (f fakeScenario) Run(ctx context.Context, _ *lab.Env, _ lab.Values) (*results.Report, error) {
	return f.run(ctx)
}

func fakeReport(scenario string) *results.Report {
	v := &results.Variant{Name: "v", Measure: results.Violations}
	v.Add(results.Trial{Outcome: results.Judged, Proof: []string{"seen"}, Counts: map[results.Measure]int{results.Violations: 0}})
	return &results.Report{Scenario: scenario, Variants: []*results.Variant{v}}
}

func TestSafetyInterruptKeepsOnlyFinishedScenarios(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	chosen := []lab.Scenario{
		fakeScenario{"first", func(context.Context) (*results.Report, error) { return fakeReport("first"), nil }},
		// The worst case: interrupted, it still returns the trials it got through.
		fakeScenario{"second", func(context.Context) (*results.Report, error) { cancel(); return fakeReport("second"), nil }},
		fakeScenario{"third", func(context.Context) (*results.Report, error) {
			t.Error("a scenario ran after the interrupt")
			return fakeReport("third"), nil
		}},
	}
	var stdout, stderr bytes.Buffer
	err := (&Suite{Scenarios: chosen, Env: &lab.Env{Trials: 1, OutDir: out}, Folder: NewFolder(out, results.Command{}, resultsdir.Environment{}), Stdout: &stdout, Stderr: &stderr}).Run(ctx)
	if !errors.Is(err, interrupt.ErrInterrupted) {
		t.Fatalf("Run: %v, want interrupt.ErrInterrupted", err)
	}
	res, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Reports) != 1 || res.Reports[0].Scenario != "first" || !res.Reports[0].Complete || res.Complete {
		t.Errorf("results.json holds %d reports (complete %v), want only the finished first one, the run incomplete: %+v", len(res.Reports), res.Complete, res.Reports)
	}
	if !strings.Contains(stdout.String(), "interrupted after 1 of 3 scenarios") {
		t.Errorf("stdout does not say the run was interrupted:\n%s", stdout.String())
	}

	// A scenario's failure stops the run too, with what finished still written.
	out = filepath.Join(t.TempDir(), "results")
	chosen = []lab.Scenario{
		fakeScenario{"first", func(context.Context) (*results.Report, error) { return fakeReport("first"), nil }},
		fakeScenario{"broken", func(context.Context) (*results.Report, error) { return nil, errors.New("no servers") }},
	}
	err = (&Suite{Scenarios: chosen, Env: &lab.Env{Trials: 1, OutDir: out}, Folder: NewFolder(out, results.Command{}, resultsdir.Environment{}), Stdout: &stdout, Stderr: &stderr}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "broken") {
		t.Errorf("Run: %v, want the broken scenario's error", err)
	}
	if res, err := results.Read(out); err != nil || len(res.Reports) != 1 {
		t.Errorf("after a failure: %v, %d reports, want the finished one", err, len(res.Reports))
	}
}

// TestResumeInterruptedBeforeItsFirstTrialKeepsWhatItResumed: a resumed run stopped
// before it got back to the trials it carries on (its servers never started) still
// writes them; a scenario the interrupted run finished is kept without running.
func TestResumeInterruptedBeforeItsFirstTrialKeepsWhatItResumed(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results")
	finished, cut := fakeReport("finished"), fakeReport("cut")
	finished.Complete = true
	folder := NewFolder(out, results.Command{}, resultsdir.Environment{})
	folder.resumed = map[string]*results.Report{"finished": finished, "cut": cut}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	chosen := []lab.Scenario{
		fakeScenario{"finished", func(context.Context) (*results.Report, error) {
			t.Error("a scenario the interrupted run finished ran again")
			return nil, nil
		}},
		fakeScenario{"cut", func(ctx context.Context) (*results.Report, error) { cancel(); return nil, ctx.Err() }},
	}
	var stdout, stderr bytes.Buffer
	if err := (&Suite{Scenarios: chosen, Env: &lab.Env{Trials: 1, OutDir: out}, Folder: folder, Stdout: &stdout, Stderr: &stderr}).Run(ctx); !errors.Is(err, interrupt.ErrInterrupted) {
		t.Fatalf("Run: %v, want interrupt.ErrInterrupted", err)
	}
	res, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || len(res.Reports) != 2 || res.Reports[0].Scenario != "finished" || res.Reports[1].Scenario != "cut" || TrialsIn(res.Reports[1]) != 1 {
		t.Errorf("results.json: complete %v, reports %+v; want the finished one and the cut one's trial, incomplete", res.Complete, res.Reports)
	}
}
