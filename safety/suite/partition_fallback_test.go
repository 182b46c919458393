package suite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// A partition scenario refusing the provider is skipped by a run of several scenarios
// (the others run, and say so); alone, its refusal is the run's error.
func TestSafetyAllSkipsScenariosThatNeedPartitions(t *testing.T) {
	refuse := fakeScenario{"needs-cuts", func(context.Context) (*results.Report, error) {
		return nil, fmt.Errorf("needs-cuts %w: provider process cannot partition nodes", lab.ErrNeedsPartitions)
	}}
	other := fakeScenario{"other", func(context.Context) (*results.Report, error) { return fakeReport("other"), nil }}
	out := filepath.Join(t.TempDir(), "results")
	var stdout, stderr bytes.Buffer
	err := (&Suite{Scenarios: []lab.Scenario{refuse, other}, Env: &lab.Env{Trials: 1, OutDir: out}, Folder: NewFolder(out, results.Command{}, resultsdir.Environment{}), Stdout: &stdout, Stderr: &stderr}).Run(context.Background())
	if err != nil {
		t.Fatalf("Run of two: %v, want the refusing one skipped", err)
	}
	if !strings.Contains(stderr.String(), "needs-cuts skipped: ") || !strings.Contains(stderr.String(), "cannot partition") {
		t.Errorf("stderr %q: want the skip and its reason", stderr.String())
	}
	res, err := results.Read(out)
	if err != nil || len(res.Reports) != 1 || res.Reports[0].Scenario != "other" {
		t.Errorf("results: %v, %+v: want the other scenario's report only", err, res.Reports)
	}
	alone := filepath.Join(t.TempDir(), "alone")
	err = (&Suite{Scenarios: []lab.Scenario{refuse}, Env: &lab.Env{Trials: 1, OutDir: alone}, Folder: NewFolder(alone, results.Command{}, resultsdir.Environment{}), Stdout: &stdout, Stderr: &stderr}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "cannot partition") {
		t.Errorf("Run of the refusing one alone: %v, want its refusal", err)
	}
}

// cutScenario refuses an Env whose Start is not the cutting one, as the partition
// scenarios refuse processes, and reports which Start it ran on.
type cutScenario struct{ cutting lab.StartFunc }

func (cutScenario) Name() string        { return "needs-cuts" }
func (cutScenario) Summary() string     { return "a stand-in" }
func (cutScenario) Params() []lab.Param { return nil }
func (c cutScenario) Run(ctx context.Context, env *lab.Env, _ lab.Values) (*results.Report, error) {
	if env.Start == nil {
		return nil, fmt.Errorf("needs-cuts %w: provider process cannot partition nodes", lab.ErrNeedsPartitions)
	}
	if _, err := env.Start(ctx, backend.Spec{}); err != nil {
		return nil, err
	}
	return fakeReport("needs-cuts"), nil
}

// Without --provider, --all runs a scenario that needs partitions on the cutting
// provider and says so in its report; when that provider has no engine, the scenario
// is skipped with both reasons and the others still run.
func TestSafetyAllMovesPartitionScenariosToContainers(t *testing.T) {
	started := 0
	cutting := func(context.Context, backend.Spec) (topologies.Topology, error) { started++; return nil, nil }
	other := fakeScenario{"other", func(context.Context) (*results.Report, error) { return fakeReport("other"), nil }}
	out := filepath.Join(t.TempDir(), "results")
	var stdout, stderr bytes.Buffer
	cuts := &CutProvider{name: "container", check: func() error { return nil }, startOn: cutting}
	if err := (&Suite{Scenarios: []lab.Scenario{cutScenario{}, other}, Env: &lab.Env{Trials: 1, OutDir: out}, Folder: NewFolder(out, results.Command{}, resultsdir.Environment{}), Cuts: cuts, Stdout: &stdout, Stderr: &stderr}).Run(context.Background()); err != nil {
		t.Fatalf("Run: %v, want the partition scenario moved, not failed", err)
	}
	if started != 1 {
		t.Errorf("the cutting provider started %d topologies, want 1", started)
	}
	res, err := results.Read(out)
	if err != nil || len(res.Reports) != 2 || res.Reports[0].Provider != "container" || res.Reports[1].Provider != "" {
		t.Fatalf("results: %v, %+v: want both reports, only the moved one marked container", err, res.Reports)
	}
	if !strings.Contains(stderr.String(), "its servers run on provider container") {
		t.Errorf("stderr %q: want the move said", stderr.String())
	}

	noEngine := &CutProvider{name: "container", check: func() error { return errors.New("no engine answers") }, startOn: cutting}
	out = filepath.Join(t.TempDir(), "results")
	stderr.Reset()
	if err := (&Suite{Scenarios: []lab.Scenario{cutScenario{}, other}, Env: &lab.Env{Trials: 1, OutDir: out}, Folder: NewFolder(out, results.Command{}, resultsdir.Environment{}), Cuts: noEngine, Stdout: &stdout, Stderr: &stderr}).Run(context.Background()); err != nil {
		t.Fatalf("Run without an engine: %v, want the partition scenario skipped", err)
	}
	if started != 1 {
		t.Errorf("the cutting provider started again without its engine")
	}
	if s := stderr.String(); !strings.Contains(s, "needs-cuts skipped: ") || !strings.Contains(s, "cannot partition") || !strings.Contains(s, "no engine answers") {
		t.Errorf("stderr %q: want the skip with both reasons", s)
	}
}
