package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety"
	"github.com/lockbench/lockbench/safety/results"
)

// A partition scenario refusing the provider is skipped by a run of several scenarios
// (the others run, and say so); alone, its refusal is the run's error.
func TestSafetyAllSkipsScenariosThatNeedPartitions(t *testing.T) {
	refuse := fakeScenario{"needs-cuts", func(context.Context) (*results.Report, error) {
		return nil, fmt.Errorf("needs-cuts %w: provider process cannot partition nodes", safety.ErrNeedsPartitions)
	}}
	other := fakeScenario{"other", func(context.Context) (*results.Report, error) { return fakeReport("other"), nil }}
	out := filepath.Join(t.TempDir(), "results")
	var stdout, stderr bytes.Buffer
	err := runScenarios(context.Background(), []safety.Scenario{refuse, other}, &safety.Env{Trials: 1, OutDir: out}, newSafetyFolder(out, results.Command{}, resultsdir.Environment{}), &stdout, &stderr)
	if err != nil {
		t.Fatalf("runScenarios of two: %v, want the refusing one skipped", err)
	}
	if !strings.Contains(stderr.String(), "needs-cuts skipped: ") || !strings.Contains(stderr.String(), "cannot partition") {
		t.Errorf("stderr %q: want the skip and its reason", stderr.String())
	}
	res, err := results.Read(out)
	if err != nil || len(res.Reports) != 1 || res.Reports[0].Scenario != "other" {
		t.Errorf("results: %v, %+v: want the other scenario's report only", err, res.Reports)
	}
	alone := filepath.Join(t.TempDir(), "alone")
	err = runScenarios(context.Background(), []safety.Scenario{refuse}, &safety.Env{Trials: 1, OutDir: alone}, newSafetyFolder(alone, results.Command{}, resultsdir.Environment{}), &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "cannot partition") {
		t.Errorf("runScenarios of the refusing one alone: %v, want its refusal", err)
	}
}
