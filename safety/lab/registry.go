package lab

import (
	"github.com/lockbench/lockbench/internal/registry"
)

var (
	scenarios = registry.New[Scenario]("scenario")
	starts    = registry.New[Starts]("scenario's starts")
)

// Register adds s under s.Name() with what it starts beside its strategies param's
// topologies (preflight checks them before a trial runs); a duplicate name is a
// programming error.
func Register(s Scenario, st Starts) {
	scenarios.Add(s.Name(), s)
	starts.Add(s.Name(), st)
}

// Lookup returns the scenario registered as name.
func Lookup(name string) (Scenario, error) { return scenarios.Get(name) }

// StartsOf is what the scenario registered as name starts.
func StartsOf(name string) (Starts, error) { return starts.Get(name) }

// Names lists the registered scenarios, sorted.
func Names() []string { return scenarios.Names() }
