package safety

import (
	"context"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// The names below are the lab's, kept here so that callers of the scenarios (the CLI,
// preflight, the suite runner) need import only this package and scenarios/all.

// Scenario is one reproducible way a lock breaks (or holds); see lab.Scenario.
type Scenario = lab.Scenario

// StartFunc starts a topology for a scenario.
type StartFunc = lab.StartFunc

// Env is what a run gives a scenario.
type Env = lab.Env

// Shard is one worker's share of a campaign's trials (--worker I/N); see lab.Shard.
type Shard = lab.Shard

// Params are the --param name=value pairs of a run, unparsed.
type Params = lab.Params

// Param declares one --param a scenario reads.
type Param = lab.Param

// ParamError is a --param refused before anything starts.
type ParamError = lab.ParamError

// Values are params parsed against a scenario's declarations.
type Values = lab.Values

// Store is a store adapter: the topology a strategy runs on and what a scenario asks of it.
type Store = lab.Store

// ErrNeedsPartitions marks a scenario refused by a provider that cannot cut the network.
var ErrNeedsPartitions = lab.ErrNeedsPartitions

// Register adds s to the scenarios a run can name.
func Register(s Scenario, st Starts) { lab.Register(s, st) }

// Lookup returns the scenario registered as name (import scenarios/all to have them all).
func Lookup(name string) (Scenario, error) { return lab.Lookup(name) }

// StartsOf is what the scenario registered as name starts; see lab.Register.
func StartsOf(name string) (Starts, error) { return lab.StartsOf(name) }

// Starts is what a scenario starts beside its strategies param's topologies.
type Starts = lab.Starts

// Names lists the registered scenarios, sorted.
func Names() []string { return lab.Names() }

// Run parses env.Params against s's declarations, runs s and stamps its report.
func Run(ctx context.Context, s Scenario, env *Env) (*results.Report, error) {
	return lab.Run(ctx, s, env)
}

// Parse parses raw against decls for scenario, with a *ParamError on bad input.
func Parse(scenario string, decls []Param, raw Params) (Values, error) {
	return lab.Parse(scenario, decls, raw)
}

// StrategiesWhere lists the lock strategies whose store fits.
func StrategiesWhere(fits func(Store) bool) []string { return lab.StrategiesWhere(fits) }
