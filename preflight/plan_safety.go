package preflight

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/updates"
)

// ForScenarios are the topologies the chosen scenarios start with params (given to a
// single scenario; --scenario all runs each with its defaults).
func ForScenarios(chosen []lab.Scenario, params lab.Params) ([]Need, error) {
	var needs []Need
	for _, s := range chosen {
		starts, err := lab.StartsOf(s.Name())
		if err != nil {
			return nil, fmt.Errorf("preflight: %w", err)
		}
		values, err := lab.Parse(s.Name(), s.Params(), params)
		if err != nil {
			return nil, err
		}
		for _, k := range starts.Kinds {
			needs = append(needs, Need{Scenario: s.Name(), Kind: k, Clocks: starts.ClocksFaked(values, "")})
		}
		strategies, err := strategiesOf(values)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: %w", s.Name(), err)
		}
		for _, st := range strategies {
			needs = append(needs,
				Need{Scenario: s.Name(), Strategy: st.name, Kind: st.spec.Kind, Clocks: starts.ClocksFaked(values, st.name) ||
					len(st.spec.Clocks) > 0})
		}
	}
	return needs, nil
}

type strategySpec struct {
	name string
	spec backend.Spec
}

// strategiesOf reads the strategies param, declared either as names or as stores;
// nil when the scenario has none.
func strategiesOf(v lab.Values) ([]strategySpec, error) {
	var out []strategySpec
	switch list := v["strategies"].(type) {
	case nil:
	case []lab.Store:
		for _, st := range list {
			out = append(out, strategySpec{st.Strategy(), st.Spec()})
		}
	case []string:
		for _, name := range list {
			spec, err := updates.TopologyFor(name)
			if err != nil {
				return nil, err
			}
			out = append(out, strategySpec{name, spec})
		}
	default:
		return nil, fmt.Errorf("param strategies is a %T: preflight reads names or stores", list)
	}
	return out, nil
}

// CheckScenarios checks a safety plan: nil when nothing is missing, else an *Error
// naming each missing piece and how to run without it (a --param strategies, or the
// scenarios that need none of it).
func CheckScenarios(provider string, chosen []lab.Scenario, needs []Need) error {
	missing := Check(provider, needs)
	if len(missing) == 0 {
		return nil
	}
	var hints, clean []string
	for _, s := range chosen {
		name := s.Name()
		ofThis := func(n Need) bool { return n.Scenario == name }
		if !needsAny(missing, ofThis) {
			clean = append(clean, name)
			continue
		}
		if fixed := piecesNeeded(missing, func(n Need) bool { return ofThis(n) && n.Strategy == "" }); len(fixed) > 0 {
			hints = append(hints, fmt.Sprintf("scenario %s needs %s whatever its params", name, join(fixed)))
			continue
		}
		var kept []string
		for _, n := range needs {
			if ofThis(n) && n.Strategy != "" && !slices.Contains(kept, n.Strategy) &&
				!needsAny(missing, func(m Need) bool { return ofThis(m) && m.Strategy == n.Strategy }) {
				kept = append(kept, n.Strategy)
			}
		}
		if len(kept) == 0 {
			hints = append(hints,
				fmt.Sprintf("scenario %s: every strategy it runs needs %s", name, join(piecesNeeded(missing, ofThis))))
			continue
		}
		hints = append(hints,
			fmt.Sprintf("or leave it out: --scenario %s --param strategies=%s", name, strings.Join(kept, ",")))
	}
	if len(chosen) > 1 && len(clean) > 0 {
		hints = append(hints, "scenarios that need none of it: --scenario "+strings.Join(clean, " | "))
	}
	return &Error{Missing: missing, Hints: hints}
}
