package lab

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// Scenario is one reproducible way a lock breaks (or holds): a store, clients, a
// nemesis and the checkers, run Trials times per variant. Its family registers its
// Runner with its About in an init function; the CLI runs it by name through Run.
type Scenario interface {
	// Name is the CLI name, lower-case-with-dashes.
	Name() string
	// Summary is one line for the CLI's list.
	Summary() string
	// Params declares every --param the scenario reads, with its typed default.
	Params() []Param
	// Run runs env.Trials trials of every variant with params already parsed. It
	// starts servers through env.Start, closes them on every path, and never waits
	// without a timeout. Cross-parameter mistakes are a *ParamError before anything
	// starts.
	Run(ctx context.Context, env *Env, p Values) (*results.Report, error)
}

// Runner is a scenario's trials: Scenario.Run, for the scenario its About names.
type Runner interface {
	Run(ctx context.Context, env *Env, p Values) (*results.Report, error)
}

// About is what the CLI lists and parses of a scenario: its name, its line in the
// list, its params and what it starts beside its strategies param's topologies.
type About struct {
	Name    string
	Summary string
	Params  []Param
	Starts  Starts
}

// StartFunc starts a topology; tests pass one that fails (or skips) without servers.
type StartFunc func(ctx context.Context, spec backend.Spec) (topologies.Topology, error)

// Env is what a run gives a scenario.
type Env struct {
	Trials int // per variant (per point, for scenarios that sweep a parameter); the cap under UntilWidth
	// UntilWidth, when above 0, stops each variant once its 95% confidence sequence is
	// narrower than it (a share, 0.05 for 5 points); 0 runs Trials trials of each.
	UntilWidth float64
	Seed       int64  // every random choice of a run derives from it
	Params     Params // --param name=value
	Start      StartFunc
	// Partitions says, before anything starts, whether the deployments Start gives for
	// a spec can cut links between nodes (nil) or why not; nil leaves it to the first
	// deployment a scenario starts (StartPartitionable).
	Partitions func(spec backend.Spec) error
	// OutDir receives porcupine's pages for violating histories (under viz/); empty
	// means none are written.
	OutDir string
	// LinearTimeout bounds porcupine's search per trial (0: 10 s). A search cut short
	// is counted as linearizability_unknown, never as linearizable.
	LinearTimeout time.Duration
	// Logf reports progress; nil is quiet.
	Logf func(format string, args ...any)
	// Resume holds, by scenario, the reports an interrupted run of the same command
	// wrote (lockbench safety --resume): a trial found there is not run again.
	Resume map[string]*results.Report
	// OnTrial hears the running scenario's report after every trial it finished, so
	// that the caller can write it before the next trial starts.
	OnTrial func(partial *results.Report)
	// Shard, when Of is above 0, is the share of a campaign spread over workers
	// (--worker I/N): this run runs only the trials whose index n has n % Of == Index,
	// with the seeds the whole run gives them.
	Shard Shard

	running  Scenario  // the scenario Run is running, nil between runs
	progress *progress // the report of the scenario running, as its trials finish
}

// Scenario is the name of the scenario Run is running ("" outside a run).
func (e *Env) Scenario() string {
	if e.running == nil {
		return ""
	}
	return e.running.Name()
}

// Run parses env.Params against s's declarations (a *ParamError on bad input, before
// anything starts), runs s, and stamps the report with its duration and rate. When
// ctx ends or s fails, Run returns the error with the report of the trials that
// finished (Complete false, possibly with no variant), for the caller to keep.
func Run(ctx context.Context, s Scenario, env *Env) (*results.Report, error) {
	vals, err := Parse(s.Name(), s.Params(), env.Params)
	if err != nil {
		return nil, err
	}
	if err := env.checkShard(); err != nil {
		return nil, err
	}
	env.running = s
	p := env.begin()
	defer func() { env.progress, env.running = nil, nil }()
	rep, err := s.Run(ctx, env, vals)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err() // a report returned through an interrupt may lack trials
	}
	if err != nil {
		p.report.Finish(p.seconds())
		return p.report, err
	}
	rep.Complete = true
	rep.Finish(p.seconds())
	return rep, nil
}

// NewReport is the empty report of one run of the scenario running.
func (e *Env) NewReport() *results.Report {
	if e.running == nil {
		panic("lab: NewReport outside Run: no scenario is running")
	}
	return &results.Report{Scenario: e.running.Name(), Summary: e.running.Summary(), Seed: e.Seed,
		TrialsPerVariant: e.Trials, Params: e.Params}
}

// logMu keeps the lines of trials running side by side whole and apart.
var logMu sync.Mutex

// Log reports progress through Logf, if the run has one; trials running side by side
// may call it at once.
func (e *Env) Log(format string, args ...any) {
	if e.Logf != nil {
		logMu.Lock()
		defer logMu.Unlock()
		e.Logf(format, args...)
	}
}

// Rand returns the random source of one trial of one variant, PCG(run seed, trial
// seed): the same seed replays the same choices, whatever order trials run in.
func (e *Env) Rand(variant string, trial int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(e.Seed), e.TrialSeed(variant, trial)))
}

// TrialSeed is trial's own seed: FNV-1a of the variant's name, xor the trial's index.
func (e *Env) TrialSeed(variant string, trial int) uint64 {
	var h uint64 = 1469598103934665603
	for _, c := range variant {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h ^ uint64(trial)
}

// startBound stops a start that hangs. It is not a speed test: on a loaded 2-core
// machine a PostgreSQL on a forgetful disk (initdb and CREATE DATABASE through a FUSE
// mount the same process serves) once took longer than 60 s.
const startBound = 3 * time.Minute

// StartTopology starts spec through env, with a bound on how long that may take.
func (e *Env) StartTopology(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
	if e.Start == nil {
		return nil, fmt.Errorf("env.Start is nil: nothing can start a %s topology", spec.Kind)
	}
	startCtx, cancel := context.WithTimeout(ctx, startBound)
	defer cancel()
	return e.Start(startCtx, spec)
}

// vizDir is where a run's porcupine pages go, made on first use; "" when the run
// writes none.
func (e *Env) vizDir() string {
	if e.OutDir == "" {
		return ""
	}
	dir := filepath.Join(e.OutDir, "viz")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		e.Log("viz dir: %v", err)
		return ""
	}
	return dir
}
