package adr

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/stats"
	"github.com/lockbench/lockbench/sweep"
)

// OptionKind says what stands between a broken lock and the data.
type OptionKind int

const (
	Lock     OptionKind = iota // the lock alone: the resource takes every write
	Fenced                     // the lock, and a resource that refuses stale fences
	LockFree                   // no lock: the store judges (version check, unique key, atomic)
)

// Option is one way to take the decision, with its cost and exposure.
type Option struct {
	Name     string
	Kind     OptionKind
	Strategy string // whose benchmark cells price it; "" when none do
	Probe    string // the strategy its safety variants are named by
	Mode     string // failover-loss mode of a guard of Probe's (backend.Guard: wait2, min-replicas)
	Fence    string // where a fenced option's tokens come from
	Cost     Cost
	Faults   []Exposure
	Verdict  Verdict
	// beyondFloor says, for a lock, that the workload's queueing floor alone breaks the
	// latency budget: no lock's cost can keep it.
	beyondFloor string
}

// KeyedFailoverOf is the store and mode of a keyed failover strategy; ok false if the
// strategy is not one. Failover-loss measures such a strategy on a store whose primary
// is the key's master (`--param strategies=STORE`): its variants are named
// STORE/MODE-delay-*, and each mode is the guard of one strategy (cluster-wait is
// cluster's SET followed by WAIT 1), as the strategy's store declares it
// (backend.Strategy.KeyedFailover).
func KeyedFailoverOf(strategy string) (store, mode string, ok bool) {
	if st, found := linked.Catalog().StrategyOf(strategy); found && st.KeyedFailover != nil {
		return st.KeyedFailover.Store, st.KeyedFailover.Mode, true
	}
	return "", "", false
}

// keyedStrategy is the strategy a keyed store's failover-loss mode measures; "" when
// no strategy is that guard (a sentinel-only mode).
func keyedStrategy(store, mode string) string {
	for _, st := range linked.Catalog().Strategies() {
		if k := st.KeyedFailover; k != nil && k.Store == store && k.Mode == mode {
			return st.Name
		}
	}
	return ""
}

// probedBy lists the strategies whose declared probes (backend.Probe) name the variant
// of scenario: the safety results measured them even where nothing benchmarked them.
func probedBy(scenario, variant string) []string {
	var out []string
	for _, st := range linked.Catalog().Strategies() {
		for _, p := range st.Probes {
			if p.Scenario == scenario && results.Names(p.Lock, variant) {
				out = appendNew(out, st.Name)
			}
		}
	}
	return out
}

// WeighedStrategies is the lock strategies the ADR weighs: the workload's candidates,
// or those of the quick matrix (the Redis ladder and the consensus baselines built in),
// sorted.
func WeighedStrategies(w *workload.Workload) []string {
	if len(w.Candidates) > 0 {
		out := slices.Clone(w.Candidates)
		sort.Strings(out)
		return out
	}
	var out []string
	for _, sw := range sweep.QuickConfig().Sweeps {
		for _, s := range sw.Strategies {
			out = appendNew(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// unmeasuredLocks are the weighed strategies the results do not name, as lock options
// with nothing measured: where the queueing floor rules every lock out, the record
// lists them too, though no measurement of them was needed.
func unmeasuredLocks(w *workload.Workload, have []*Option) []*Option {
	var out []*Option
	for _, s := range WeighedStrategies(w) {
		if !slices.ContainsFunc(have, func(o *Option) bool { return o.Probe == s }) {
			out = append(out, &Option{Name: s, Kind: Lock, Probe: s})
		}
	}
	return out
}

// candidatesOnly keeps, of the options, the ways with no lock and the locks of the
// workload's candidates, when it names any: the team weighs only what it would run.
func candidatesOnly(w *workload.Workload, options []*Option) []*Option {
	if len(w.Candidates) == 0 {
		return options
	}
	return slices.DeleteFunc(options, func(o *Option) bool {
		return o.Kind != LockFree && !slices.Contains(w.Candidates, o.Probe)
	})
}

// LoadWorkload reads a workload file and checks what only the catalog knows: that each
// candidate is a lock strategy of lockbench's. Bad input is a workload.FieldError.
func LoadWorkload(path string) (*workload.Workload, error) {
	w, err := workload.Load(path)
	if err != nil {
		return nil, err
	}
	for _, c := range w.Candidates {
		_, known := linked.Catalog().StrategyOf(c)
		switch {
		case slices.Contains(LockFreeStrategies, c):
			return nil, workload.FieldError{File: path, Field: "candidates", Msg: fmt.Sprintf(
				"%q takes no lock: the ways with no lock are weighed for correctness anyway", c)}
		case !known:
			return nil, workload.FieldError{File: path, Field: "candidates", Msg: fmt.Sprintf(
				"%q is no strategy of lockbench's (lockbench run --help lists them)", c)}
		}
	}
	return w, nil
}

// LockFreeStrategies are the ways to one correct update that take no lock.
var LockFreeStrategies = []string{"cas-version", "unique-key", "atomic"}

// Options lists every option the results have: each benchmarked lock strategy, the
// strategies and guards only the safety results measured (cost not measured), a
// fenced twin of each strategy whose fenced variants ran, and the lock-free ways.
func Options(in *Inputs) []*Option {
	var out []*Option
	seen := map[string]bool{}
	add := func(o *Option) {
		if !seen[o.Name] {
			seen[o.Name] = true
			out = append(out, o)
		}
	}
	var locks, free []string
	for _, r := range in.Runs {
		for _, c := range r.Cells {
			switch {
			case c.IsUpdate() && slices.Contains(LockFreeStrategies, c.Strategy):
				free = appendNew(free, c.Strategy)
			case !c.IsUpdate():
				locks = appendNew(locks, c.Strategy)
			}
		}
	}
	for _, rep := range in.Safety {
		for _, v := range rep.Variants {
			if s := v.Params["strategy"]; s != "" && rep.Scenario == "failover-loss" {
				// A keyed store's variant measures the strategy its mode's guard is.
				if k := keyedStrategy(s, v.Params["mode"]); k != "" {
					locks = appendNew(locks, k)
				}
			} else if s != "" && rep.Scenario != "lost-updates" {
				locks = appendNew(locks, s)
			}
			for _, s := range probedBy(rep.Scenario, v.Name) {
				locks = appendNew(locks, s)
			}
			if rep.Scenario == "lost-updates" {
				if brk, s, ok := strings.Cut(v.Name, "/"); ok && brk == "pause" && slices.Contains(LockFreeStrategies, s) {
					free = appendNew(free, s)
				}
			}
		}
	}
	stats.SortStrategies(linked.Catalog(), locks)
	benched := map[string]bool{}
	for _, r := range in.Runs {
		for _, c := range r.Cells {
			benched[c.Strategy] = true
		}
	}
	for _, s := range locks {
		cost := s
		if !benched[s] {
			cost = ""
		}
		add(&Option{Name: s, Kind: Lock, Strategy: cost, Probe: s})
		if fence := fenceOf(in.Safety, s); fence != "" {
			add(&Option{Name: s + " + fence", Kind: Fenced, Strategy: cost, Probe: s, Fence: fence})
		}
		for _, g := range GuardOptions(s) {
			if len(results.Matching(in.Safety, "failover-loss", failoverLossDelays("", g.Mode))) > 0 {
				add(g)
			}
		}
	}
	sort.Strings(free)
	for _, s := range free {
		cost := s
		if !benched[s] {
			cost = ""
		}
		add(&Option{Name: s + " (no lock)", Kind: LockFree, Strategy: cost, Probe: s})
	}
	return out
}

// fenceOf is the fence source of a strategy's fenced pause-past-ttl variants; "" if
// none ran.
func fenceOf(reports []*results.Report, strategy string) string {
	for _, v := range results.Matching(reports, "pause-past-ttl", []string{strategy + "/*-fenced"}) {
		if f := v.Params["fence"]; f != "" {
			return f
		}
		return "the strategy's fence"
	}
	return ""
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
