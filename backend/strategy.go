package backend

import (
	"fmt"
	"slices"
	"sort"
)

// Strategy is what a store declares of one of its strategies (a lock strategy, or a
// lock-free way to one correct update) for every list that names strategies: the
// presets, the cost-of-safety ladder, the looks of figures, the safety order, the
// decision record and the synthetic results. Each list asks the catalog, so a store
// joins them by its registration alone.
type Strategy struct {
	Name string
	// Position places it in every list of strategies, lowest first, and is its slot of
	// looks in figures (plots.LookOf): unique, and never given to another strategy, so
	// that a shipped strategy looks the same in every figure of every run. A new
	// strategy takes the next number past the highest registered.
	Position int
	// SafetyRank orders strategies from the least to the most safe, the order a reader
	// climbs when paying for guarantees; strategies of one rank sort by name. 0 is
	// unranked: after every ranked strategy.
	SafetyRank SafetyRank
	// Presets are the matrices that measure it.
	Presets []Preset
	// Scaling places it on one of its store's scaling axes; nil for none.
	Scaling *Scaling
	// Ladder is its step on the report's cost-of-safety ladder; nil when it has none.
	Ladder *Rung
	// KeyedFailover is the failover-loss run on its store whose guard it is; nil when
	// failover-loss does not measure it that way.
	KeyedFailover *KeyedFailover
	// Synthetic is the invented cost report/synth gives it; nil keeps it out of
	// synthetic results.
	Synthetic *Synthetic
	// Probes are where the safety suite measures it under the faults the decision
	// record weighs (probe.go); a keyed failover's and a client pause's follow from
	// KeyedFailover and the name, and are not declared.
	Probes []Probe
	// Guards are the failover-loss modes the safety suite measures on its deployment
	// that no strategy of their own benchmarks (WAIT 2 beside the Sentinel's lock).
	Guards []Guard
	// AwaitsEveryNode: on independent masters, its client returns only once every node
	// answered, not at the first majority (redsync without fail-fast), so no SET of its
	// grant is still in flight when it returns.
	AwaitsEveryNode bool
	// BaselineCommand: its acquire is the one command bench's redis-benchmark baseline
	// times (SET NX PX on one master), so the benchmark table prices it as a multiple of
	// that baseline.
	BaselineCommand bool
	kind            Kind
	kindCan         any // its shape's Can, copied at registration
}

// AwaitsEveryIndependentNode says whether s's client locks independent masters and
// returns only once every one answered (redlock; a fail-fast client returns at a
// majority, with SETs of its grant still in flight).
func (s Strategy) AwaitsEveryIndependentNode() bool {
	_, independent := s.kindCan.(IndependentMajority)
	return independent && s.AwaitsEveryNode
}

// StrategyAwaitsEveryIndependentNode is AwaitsEveryIndependentNode of the catalog's
// strategy called name; false for a name not in it.
func (c *Catalog) StrategyAwaitsEveryIndependentNode(name string) bool {
	st, ok := c.StrategyOf(name)
	return ok && st.AwaitsEveryIndependentNode()
}

// Guard is a failover-loss mode that guards a strategy's grants, measured by the
// safety suite alone; the decision record weighs it as an option of its own.
type Guard struct {
	Mode string // failover-loss's mode (--param modes), which names its variants
	Name string // the option's name
}

// GuardOf is the strategy's guard of failover-loss mode mode; false when none.
func (s Strategy) GuardOf(mode string) (Guard, bool) {
	for _, g := range s.Guards {
		if g.Mode == mode {
			return g, true
		}
	}
	return Guard{}, false
}

// Kind is the deployment kind whose shape declared the strategy.
func (s Strategy) Kind() Kind { return s.kind }

// In says whether the strategy is measured by preset p.
func (s Strategy) In(p Preset) bool { return slices.Contains(s.Presets, p) }

// SafetyRank is a step of the safety order: what a grant rests on. The numbers leave
// room between steps for a store whose guarantee sits between two.
type SafetyRank int

const (
	Unranked          SafetyRank = 0  // after every ranked strategy
	RankOneMaster     SafetyRank = 10 // one server's memory: the lock dies with it
	RankReplicaAck    SafetyRank = 20 // a replica acknowledged the key before the grant
	RankFailover      SafetyRank = 30 // sentinels promote a replica when the master dies
	RankShardFailover SafetyRank = 40 // each key's master fails over asynchronously, as under Sentinel
	RankMajority      SafetyRank = 50 // a majority of independent masters granted the key
	RankConsensus     SafetyRank = 60 // a majority of members agreed the grant (Raft, Zab)
)

// Preset is one of the matrices lockbench measures without being told which strategies.
type Preset string

const (
	// RunMatrix: the matrices `lockbench run` measures by default and with --quick.
	RunMatrix Preset = "run"
	// UpdateMatrix: the lock strategies `lockbench run --workload update` measures
	// beside the lock-free ways.
	UpdateMatrix Preset = "update"
	// CapacitySearch: the strategies `lockbench capacity` searches by default.
	CapacitySearch Preset = "capacity"
	// ScalingMatrix: the strategies of the scaling-hold and scaling-clients presets.
	ScalingMatrix Preset = "scaling"
	// SlowNodeSweep: the quick matrix's sweep with one slow node of several.
	SlowNodeSweep Preset = "one-slow"
	// OpenLoopSweep: the quick matrix's open-loop sweep, where the queue builds.
	OpenLoopSweep Preset = "open-loop"
)

// Rung is a strategy's step on the cost-of-safety ladder and, in the report's words,
// what it buys.
type Rung struct {
	// From is the strategy the step is priced against alone (another deployment of the
	// same protocol); empty for a step of the main line, priced against the rung below.
	From string
	Adds string
}

// KeyedFailover names the failover-loss run that measures a strategy as the guard of
// a store whose primary is the key's master: `--param strategies=Store`, mode Mode.
type KeyedFailover struct{ Store, Mode string }

// checkStrategies checks the descriptor's strategies against each other and those
// registered before; it changes nothing when one is refused.
func (c *Catalog) checkStrategies(d Descriptor) error {
	names, positions := map[string]bool{}, map[int]string{}
	for _, sh := range d.Shapes {
		for _, st := range sh.Strategies {
			if st.Name == "" {
				return fmt.Errorf("backend: store %s: a strategy of kind %s has no name", d.Store, sh.Kind)
			}
			if _, dup := c.strategies[st.Name]; dup || names[st.Name] {
				return fmt.Errorf("backend: strategy registered twice: %s", st.Name)
			}
			holder, dup := c.positions[st.Position]
			if other, mine := positions[st.Position]; mine {
				holder, dup = other, true
			}
			if dup {
				return fmt.Errorf("backend: strategies %s and %s both at position %d", holder, st.Name, st.Position)
			}
			names[st.Name], positions[st.Position] = true, st.Name
		}
	}
	return nil
}

// addStrategies indexes a registered shape's strategies, each knowing its kind.
func (c *Catalog) addStrategies(sh Shape) {
	for _, st := range sh.Strategies {
		st.kind, st.kindCan = sh.Kind, sh.Can
		c.strategies[st.Name] = st
		c.positions[st.Position] = st.Name
	}
}

// Strategies lists every strategy of the catalog, by position.
func (c *Catalog) Strategies() []Strategy {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]Strategy, 0, len(c.strategies))
	for _, st := range c.strategies {
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Position < out[j].Position })
	return out
}

// StrategyOf returns the strategy called name; false when no store of the catalog
// declared it.
func (c *Catalog) StrategyOf(name string) (Strategy, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	st, ok := c.strategies[name]
	return st, ok
}

// InPreset lists the names of the strategies preset p measures, by position.
func (c *Catalog) InPreset(p Preset) []string {
	var out []string
	for _, st := range c.Strategies() {
		if st.In(p) {
			out = append(out, st.Name)
		}
	}
	return out
}
