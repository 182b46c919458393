package suite

import (
	"fmt"
	"io"
	"strings"

	"github.com/lockbench/lockbench/internal/usage"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
)

// Choose resolves a scenario name, or all, and checks params against it before
// anything starts: an unknown name or a bad value is a usage error.
func Choose(name string, params lab.Params) ([]lab.Scenario, error) {
	if name == "" {
		return nil, usage.Errorf("--scenario is required: one of %s, or all", strings.Join(lab.Names(), ", "))
	}
	if name == "all" {
		if len(params) > 0 {
			return nil, usage.Errorf("--param applies to one scenario, not to --scenario all")
		}
		var all []lab.Scenario
		for _, n := range lab.Names() {
			s, err := lab.Lookup(n)
			if err != nil {
				return nil, err
			}
			all = append(all, s)
		}
		return all, nil
	}
	s, err := lab.Lookup(name)
	if err != nil {
		return nil, usage.Errorf("--scenario: %v", err)
	}
	if _, err := lab.Parse(s.Name(), s.Params(), params); err != nil {
		return nil, usage.Errorf("--param: %v", err)
	}
	return []lab.Scenario{s}, nil
}

// List prints the scenarios with their params, the strategies with a store and the
// registered faults.
func List(w io.Writer) {
	fmt.Fprintln(w, "scenarios:")
	for _, n := range lab.Names() {
		s, err := lab.Lookup(n)
		if err != nil {
			continue
		}
		fmt.Fprintf(w, "  %-18s %s\n", n, s.Summary())
		for _, p := range s.Params() {
			fmt.Fprintf(w, "      --param %s=%s  %s\n", p.Name, p.Default, p.Help)
		}
	}
	// The etcd strategies are here when the command imports backends/etcd/etcdlock.
	all := func(lab.Store) bool { return true }
	fmt.Fprintf(w, "strategies with a store: %s\n", strings.Join(lab.StrategiesWhere(all), ", "))
	fmt.Fprintf(w, "faults: %s\n", strings.Join(nemesis.Names(), ", "))
}
