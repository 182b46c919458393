// Package newstore_test shows that a store joins every list of strategies by its
// registration alone: it registers a store, one value, that no file outside this folder
// names, and reads
// each list (presets, capacity's defaults, the ladder, the looks of figures, the safety
// order, the decision record's options and probes, the synthetic matrix).
package newstore_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/adr"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	_ "github.com/lockbench/lockbench/backends/all" // the stores the command links
	"github.com/lockbench/lockbench/backends/store"
	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/report"
	"github.com/lockbench/lockbench/report/synth"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/stats"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/container"
)

// The test store: a key-value server whose primary is the key's master, failing over
// somewhere between Sentinel and a Redis Cluster on the safety order.
const (
	kind     backend.Kind = "testkv"
	plain                 = "testkv"
	waiting               = "testkv-wait"
	position              = 100
)

// The whole store, registered once: its kind, two strategies with what every list
// knows of them, and its servers in containers.
func init() {
	every := []backend.Preset{backend.RunMatrix, backend.UpdateMatrix, backend.CapacitySearch, backend.ScalingMatrix}
	cost := func(attempt time.Duration) *backend.Synthetic {
		return &backend.Synthetic{Attempt: attempt, RoundTrips: 1, Capacity: 20000, Topology: "testkv (1 server)", Unproxied: true}
	}
	noLocker := func(context.Context, topologies.Topology, locks.Options) (locks.Locker, error) {
		return nil, errors.New("a test store builds no locker")
	}
	store.Register(store.Store{
		Descriptor: backend.Descriptor{Store: "testkv", Shapes: []backend.Shape{{
			Kind: kind, Rank: 1000, NoNetwork: "a test store"}}},
		Strategies: []locks.Strategy{
			{Strategy: backend.Strategy{Name: plain, Position: position, SafetyRank: backend.RankFailover + 5,
				Presets:       every,
				Ladder:        &backend.Rung{From: "single", Adds: "the test store's grant"},
				KeyedFailover: &backend.KeyedFailover{Store: plain, Mode: "none"},
				Synthetic:     cost(100 * time.Microsecond)},
				Spec: backend.Spec{Kind: kind}, Build: noLocker},
			{Strategy: backend.Strategy{Name: waiting, Position: position + 1, SafetyRank: backend.RankFailover + 5,
				Presets:       every,
				Ladder:        &backend.Rung{From: plain, Adds: "the test store's grant, acknowledged by a replica"},
				KeyedFailover: &backend.KeyedFailover{Store: plain, Mode: "wait1"},
				Synthetic:     cost(200 * time.Microsecond)},
				Spec: backend.Spec{Kind: kind}, Build: noLocker},
		},
		// Its servers in containers: a recipe in its registration is all the provider needs.
		Containers: []store.Recipe{{Kind: kind, Start: func(context.Context, *container.Topology) (topologies.Topology,
			error) {
			return nil, errors.New("a test store starts no server")
		}}},
	})
}

// TestNoFileOutsideTheStoreNamesIt: the store above joined every list with no line
// elsewhere in the tree, lists, docs and scripts included.
func TestNoFileOutsideTheStoreNamesIt(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (path == here || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(body, []byte(plain)) {
			t.Errorf("%s names the test store %s: a store must need no line outside its folder", path, plain)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// joined fails t unless list holds both test strategies, the plain one first.
func joined(t *testing.T, what string, list []string) {
	t.Helper()
	i, j := slices.Index(list, plain), slices.Index(list, waiting)
	if i < 0 || j < i {
		t.Errorf("%s: %v, want %s then %s", what, list, plain, waiting)
	}
}

func TestTheStoreJoinsEveryPreset(t *testing.T) {
	joined(t, "run's default matrix", sweep.DefaultConfig().Sweeps[0].Strategies)
	quick := sweep.QuickConfig().Sweeps
	joined(t, "run's quick matrix", quick[0].Strategies)
	if slices.Contains(quick[1].Strategies, plain) {
		t.Errorf("the quick network sweep runs %s, whose kind declared no network profiles", plain)
	}
	joined(t, "the update matrix", sweep.UpdateConfig(false).Sweeps[0].Strategies)
	joined(t, "scaling-clients", sweep.ScalingPresets()["scaling-clients"].Sweeps[0].Strategies)
	joined(t, "scaling-hold", sweep.ScalingPresets()["scaling-hold"].Sweeps[0].Strategies)
	joined(t, "capacity's defaults", capacity.DefaultConfig(linked.Catalog()).Strategies)
}

func TestTheStoreJoinsTheLadder(t *testing.T) {
	run := &resultsdir.Run{SchemaVersion: 1, Complete: true}
	for _, c := range []struct {
		strategy string
		p50      time.Duration
		cps      float64
	}{{"single", 100 * time.Microsecond, 1000}, {plain, 200 * time.Microsecond, 500}, {waiting, 400 * time.Microsecond, 250}} {
		run.Cells = append(run.Cells, resultsdir.Cell{
			Name: "strategy=" + c.strategy + "/clients=4/keys=4", Strategy: c.strategy, Clients: 4, Keys: 4,
			Network: resultsdir.Network{Profile: "none"}, Load: resultsdir.LoadMode{Mode: "closed"}, CyclesPerSecond: c.cps,
			Latency: map[string]resultsdir.Summary{resultsdir.MetricAcquire: {Count: 10, P50: resultsdir.Duration(c.p50), P99: resultsdir.Duration(2 * c.p50), P999: resultsdir.Duration(3 * c.p50)}},
		})
	}
	md := report.Markdown(run, nil, report.Options{Stores: linked.Catalog()})
	for _, want := range []string{"`single` → `testkv` | the test store's grant", "`testkv` → `testkv-wait` | the test store's grant, acknowledged"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report's ladder lacks %q:\n%s", want, md)
		}
	}
}

func TestTheStoreHasItsOwnLooksAndRank(t *testing.T) {
	alone := plots.NewStyles(linked.Catalog(), []string{"custom-1", waiting})
	if got, want := alone.Look(waiting, false), plots.LookOf(position+1); got != want {
		t.Errorf("%s looks %+v beside custom-1, want its position's %+v", waiting, got, want)
	}
	names := []string{"redlock", waiting, "cluster", "custom", plain, "sentinel"}
	stats.SortStrategies(linked.Catalog(), names)
	if got := strings.Join(names, " "); got != "sentinel testkv testkv-wait cluster redlock custom" {
		t.Errorf("safety order: %s", got)
	}
}

func TestTheStoreJoinsTheDecisionRecord(t *testing.T) {
	if store, mode, ok := adr.KeyedFailoverOf(waiting); !ok || store != plain || mode != "wait1" {
		t.Errorf("KeyedFailoverOf(%s) = %s, %s, %v", waiting, store, mode, ok)
	}
	fl := &results.Report{Scenario: "failover-loss", Complete: true}
	for _, mode := range []string{"none", "wait1"} {
		fl.Variants = append(fl.Variants, &results.Variant{Name: plain + "/" + mode + "-delay-0ms", Params: map[string]string{"strategy": plain, "mode": mode}})
	}
	var names []string
	for _, o := range adr.Options(&adr.Inputs{Safety: []*results.Report{fl}}) {
		names = append(names, o.Name)
		if o.Name == waiting {
			p, ok := adr.ProbeFor(backend.FailoverFault, o)
			if !ok || p.Scenario != "failover-loss" || strings.Join(p.Mutex, " ") != "testkv/wait1-delay-*" {
				t.Errorf("%s's failover probe: %+v, %v", waiting, p, ok)
			}
		}
	}
	joined(t, "the decision record's options", names)
}

func TestTheStoreJoinsTheSyntheticMatrix(t *testing.T) {
	var cells []string
	for _, c := range synth.Generate(synth.Options{Stores: linked.Catalog(), Seed: 1}).Cells {
		if strings.HasPrefix(c.Strategy, plain) {
			cells = appendNew(cells, c.Strategy)
			if c.Network.Profile != "none" {
				t.Errorf("%s: an unproxied strategy behind a latency proxy", c.Name)
			}
		}
	}
	joined(t, "synth's full matrix", cells)
	for _, c := range synth.Generate(synth.Options{Stores: linked.Catalog(), Seed: 1, Small: true}).Cells {
		if strings.HasPrefix(c.Strategy, plain) {
			t.Fatalf("the small matrix (golden files) holds %s, which did not ask to be in it", c.Name)
		}
	}
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// The container provider serves the store by its recipe alone, as it serves Redis's
// kinds and every other store's: no list of kinds in the provider to join.
func TestTheStoreRunsInContainersByItsRecipeAlone(t *testing.T) {
	if !(container.Provider{}).Serves(kind) {
		t.Fatalf("the container provider does not serve %s, whose recipe is registered", kind)
	}
	p, err := topologies.ProviderServing("container", kind)
	if err != nil || p.Name() != "container" {
		t.Fatalf("--provider container for %s: %v, %v; want the container provider", kind, p, err)
	}
	if (container.Provider{}).Serves("testkv-without-a-recipe") {
		t.Fatal("the container provider serves a kind no store gave a recipe for")
	}
}
