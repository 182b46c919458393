package preflight

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/updates"
)

// ForCells are the topologies a run's cells start: each strategy's, and for the
// update workload the PostgreSQL holding the rows.
func ForCells(cells []sweep.Cell) ([]Need, error) {
	var needs []Need
	seen := map[Need]bool{}
	add := func(n Need) {
		if !seen[n] {
			seen[n] = true
			needs = append(needs, n)
		}
	}
	for _, c := range cells {
		spec, err := updates.TopologyFor(c.Strategy)
		if err != nil {
			return nil, err
		}
		add(Need{Strategy: c.Strategy, Kind: spec.Kind, Clocks: len(spec.Clocks) > 0})
		if c.Workload == sweep.WorkloadUpdate {
			add(Need{Strategy: c.Strategy, Kind: topologies.Postgres})
		}
	}
	return needs, nil
}

// ForStrategies are the topologies the strategies run on (capacity's searches).
func ForStrategies(strategies []string) ([]Need, error) {
	var needs []Need
	for _, st := range strategies {
		spec, err := updates.TopologyFor(st)
		if err != nil {
			return nil, err
		}
		needs = append(needs, Need{Strategy: st, Kind: spec.Kind, Clocks: len(spec.Clocks) > 0})
	}
	return needs, nil
}

// CheckStrategies checks a run or capacity plan: nil when nothing is missing, else an
// *Error that names each missing piece and the --strategies that leaves them out.
func CheckStrategies(provider string, needs []Need) error {
	missing := Check(provider, needs)
	if len(missing) == 0 {
		return nil
	}
	return &Error{Missing: missing, Hints: []string{strategiesHint(needs, missing)}}
}

// strategiesHint is the --strategies of the plan's strategies that need nothing missing.
func strategiesHint(needs []Need, missing []Missing) string {
	var all, kept []string
	for _, n := range needs {
		if slices.Contains(all, n.Strategy) {
			continue
		}
		all = append(all, n.Strategy)
		if !needsAny(missing, func(m Need) bool { return m.Strategy == n.Strategy }) {
			kept = append(kept, n.Strategy)
		}
	}
	if len(kept) == 0 {
		return "no --strategies leaves it out: every strategy of the plan needs it"
	}
	return "or leave it out: --strategies " + strings.Join(kept, ",")
}

// Error is a plan this machine cannot run; the command exits before anything starts.
type Error struct {
	Missing []Missing
	Hints   []string // how to run without what is missing
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "this machine lacks what the plan needs (nothing was started, no results folder made):\n")
	for _, m := range e.Missing {
		b.WriteString(m.describe())
	}
	for _, h := range e.Hints {
		fmt.Fprintf(&b, "  %s\n", h)
	}
	fmt.Fprintf(&b, "  (lockbench doctor shows what each provider can serve here)")
	return b.String()
}

func join(list []string) string { return strings.Join(list, ", ") }

func joinKinds(kinds []backend.Kind) string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = string(k)
	}
	return join(s)
}
