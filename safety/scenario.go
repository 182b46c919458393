package safety

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"

	"github.com/lockbench/lockbench/topologies"
)

// Scenario is one reproducible way a lock breaks (or holds): a topology, clients, a
// nemesis and the checkers, run Trials times per variant. Register it from its own
// file with Register in an init function; the CLI runs it by name.
type Scenario interface {
	// Name is the CLI name, lower-case-with-dashes.
	Name() string
	// Summary is one line for the CLI's list.
	Summary() string
	// Params lists the --param names Run accepts, with defaults: the CLI refuses others.
	Params() []Param
	// Run runs env.Trials trials of every variant. It starts its servers through
	// env.Start, closes them on every path, and never waits without a timeout: a fault
	// that cannot be produced is counted in Variant.FaultNotProduced, never as safe.
	// Bad params are returned as a *ParamError before anything starts.
	Run(ctx context.Context, env *Env) (*Report, error)
}

// Param documents one scenario parameter.
type Param struct {
	Name, Default, Help string
}

// StartFunc starts a topology; tests pass one that fails (or skips) without redis-server.
type StartFunc func(ctx context.Context, spec topologies.Spec) (topologies.Topology, error)

// Env is what a run gives a scenario.
type Env struct {
	Trials int    // per variant (per point, for scenarios that sweep a parameter)
	Seed   int64  // every random choice of a run derives from it
	Params Params // --param name=value
	Start  StartFunc
	// OutDir receives porcupine's pages for violating histories (under viz/); empty
	// means none are written.
	OutDir string
	// Logf reports progress; nil is quiet.
	Logf func(format string, args ...any)
}

func (e *Env) logf(format string, args ...any) {
	if e.Logf != nil {
		e.Logf(format, args...)
	}
}

// Rand returns the random source of one trial of one variant: the same seed replays
// the same choices.
func (e *Env) Rand(variant string, trial int) *rand.Rand {
	var h uint64 = 1469598103934665603
	for _, c := range variant {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return rand.New(rand.NewPCG(uint64(e.Seed), h^uint64(trial)))
}

var scenarios = struct {
	sync.RWMutex
	byName map[string]Scenario
}{byName: map[string]Scenario{}}

// Register adds s under s.Name(); a duplicate name is a programming error.
func Register(s Scenario) {
	scenarios.Lock()
	defer scenarios.Unlock()
	if _, dup := scenarios.byName[s.Name()]; dup {
		panic("safety: scenario registered twice: " + s.Name())
	}
	scenarios.byName[s.Name()] = s
}

// Lookup returns the scenario registered as name.
func Lookup(name string) (Scenario, error) {
	scenarios.RLock()
	defer scenarios.RUnlock()
	s, ok := scenarios.byName[name]
	if !ok {
		return nil, fmt.Errorf("unknown scenario %q: want one of %s", name, strings.Join(namesLocked(), ", "))
	}
	return s, nil
}

// Names lists the registered scenarios, sorted.
func Names() []string {
	scenarios.RLock()
	defer scenarios.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	names := make([]string, 0, len(scenarios.byName))
	for n := range scenarios.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
