package adr

import (
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/safety/results"
)

// Probe says where one fault's conditional probabilities for one option are measured:
// the scenario, the variants (patterns as in safety/results/claims.go, "*" matching any
// run of characters), and the measure counted.
type Probe struct {
	Scenario string
	dataIn   string          // the scenario of the data variants, when another
	Mutex    []string        // variants whose Violations measure the lock's failure
	Data     []string        // variants measuring what reached the data; nil: as mutex
	DataBy   results.Measure // "" with data nil: a violation reaches an unfenced resource
	refused  results.Measure // the fence's refusals, where it counts them
}

// DataScenario is where the data variants live.
func (p Probe) DataScenario() string {
	if p.dataIn != "" {
		return p.dataIn
	}
	return p.Scenario
}

// NotApplicable says why a fault cannot strike an option; "" when it can.
func NotApplicable(k backend.Fault, o *Option) string {
	if o.Kind == LockFree && k != backend.ClientPauseFault && k != backend.RedeliveryFault {
		// The faults are the lock service's; the store's own durability is the same
		// under every option and is not compared here.
		return "no lock service: the store judges every update"
	}
	_, promotes := declared(backend.FailoverFault, o)
	if (k == backend.FailoverFault || k.GrantsForAWindow()) && !promotes {
		return "nothing is promoted: one server, or independent nodes"
	}
	return ""
}

// ProbeFor is the safety measurement of fault k for option o; false when no scenario
// of the suite measures it. A client pause is measured alike for every strategy; the
// other faults where the strategy's store declared them (backend.Probe).
// TestProbesUseTheClaimsPatterns keeps the patterns in step with the claims'.
func ProbeFor(k backend.Fault, o *Option) (Probe, bool) {
	s := o.Probe
	if o.Kind == LockFree {
		switch k {
		case backend.ClientPauseFault:
			return Probe{Scenario: "lost-updates", Data: []string{"pause/" + s}, DataBy: results.LostUpdates}, true
		case backend.RedeliveryFault:
			return Probe{Scenario: "lost-updates", Data: []string{"redelivery/" + s}, DataBy: results.Duplicates}, true
		}
		return Probe{}, false
	}
	if k == backend.RedeliveryFault {
		// A redelivered change takes the lock (and a fresh fence) again once the first
		// is done: no scenario runs it through a lock service yet.
		return Probe{}, false
	}
	if k == backend.ClientPauseFault {
		p := Probe{Scenario: "pause-past-ttl", Mutex: []string{s + "/no-watchdog", s + "/watchdog"},
			Data: []string{s + "/no-watchdog", s + "/watchdog"}, DataBy: results.StaleAccepted}
		if o.Kind == Fenced {
			p.Data, p.refused = []string{s + "/no-watchdog-fenced", s + "/watchdog-fenced"}, results.StaleRejected
		}
		return p, true
	}
	d, ok := declared(k, o)
	if !ok {
		return Probe{}, false
	}
	p := Probe{Scenario: d.Scenario, Mutex: d.Lock}
	// A fenced option's data side must be measured by a fenced variant: the lock's
	// own violations say nothing of what the fence let through.
	if o.Kind == Fenced {
		p.Data = []string{}
		if f := d.Fenced; f != nil {
			p.Data, p.DataBy, p.dataIn = f.Variants, results.Measure(f.Measure), f.Scenario
		}
	}
	return p, true
}

// declared is the store's probe of fault k for option o: a guard's when the option is
// one, the keyed failover-loss run of a strategy that guards its store's key master,
// or the strategy's own declaration.
func declared(k backend.Fault, o *Option) (backend.Probe, bool) {
	st, ok := linked.Catalog().StrategyOf(o.Probe)
	if !ok {
		return backend.Probe{}, false
	}
	if k == backend.FailoverFault && o.Mode != "" {
		_, ok := st.GuardOf(o.Mode)
		return backend.Probe{Fault: k, Scenario: "failover-loss", Lock: failoverLossDelays("", o.Mode)}, ok
	}
	if k.GrantsForAWindow() && o.Mode != "" {
		return backend.Probe{}, false // a guard is measured through a crash only
	}
	if kf := st.KeyedFailover; k == backend.FailoverFault && kf != nil {
		// The store's own failover, its key's master killed: a fenced option's data
		// side is not measured there (no fence-regression on such a store).
		return backend.Probe{Fault: k, Scenario: "failover-loss", Lock: failoverLossDelays(kf.Store, kf.Mode)}, true
	}
	return st.ProbeOf(k)
}

// failoverLossDelays are failover-loss's variants of one mode at every kill delay: the
// Sentinel's named by the mode alone, a keyed store's after the store's name.
func failoverLossDelays(store, mode string) []string {
	if store != "" {
		mode = store + "/" + mode
	}
	return []string{mode + "-delay-*"}
}

// GuardOptions are the options of the strategy's guards (backend.Guard), each a
// failover-loss mode on its deployment with no strategy of its own.
func GuardOptions(strategy string) []*Option {
	st, _ := linked.Catalog().StrategyOf(strategy)
	var out []*Option
	for _, g := range st.Guards {
		out = append(out, &Option{Name: g.Name, Kind: Lock, Probe: strategy, Mode: g.Mode})
	}
	return out
}

// mechanismOf is how fault k breaks option o's lock, as its store declared it; "" for
// none (a guard's failover: no model sizes it).
func mechanismOf(k backend.Fault, o *Option) backend.Mechanism {
	d, _ := declared(k, o)
	return d.Mechanism
}
