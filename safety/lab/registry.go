package lab

import (
	"github.com/lockbench/lockbench/internal/registry"
)

var scenarios = registry.New[Scenario]("scenario")

// Register adds s under s.Name(); a duplicate name is a programming error.
func Register(s Scenario) { scenarios.Add(s.Name(), s) }

// Lookup returns the scenario registered as name.
func Lookup(name string) (Scenario, error) { return scenarios.Get(name) }

// Names lists the registered scenarios, sorted.
func Names() []string { return scenarios.Names() }
