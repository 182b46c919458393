package adr

import (
	"strings"

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
func NotApplicable(k FaultKind, o *Option) string {
	if o.Kind == LockFree && k != ClientPause {
		// The faults are the lock service's; the store's own durability is the same
		// under every option and is not compared here.
		return "no lock service: the store judges every update"
	}
	if k == Failover {
		_, _, keyed := KeyedFailoverOf(o.Probe)
		switch {
		case o.Probe == "sentinel", o.Probe == "wait", strings.HasSuffix(o.Probe, "-3"), keyed:
			return ""
		}
		return "nothing is promoted: one server, or independent nodes"
	}
	return ""
}

// ProbeFor is the safety measurement of fault k for option o; false when no scenario
// of the suite measures it. The patterns are the claims' own (claims.go), narrowed
// to the option's strategy; TestProbesUseTheClaimsPatterns keeps them in step.
func ProbeFor(k FaultKind, o *Option) (Probe, bool) {
	s := o.Probe
	if o.Kind == LockFree {
		if k == ClientPause {
			return Probe{Scenario: "lost-updates", Data: []string{"pause/" + s}, DataBy: results.LostUpdates}, true
		}
		return Probe{}, false
	}
	var p Probe
	switch k {
	case Failover:
		store, mode, keyed := KeyedFailoverOf(s)
		switch {
		case keyed:
			// The store's own failover, its key's master killed: a fenced option's
			// data side is not measured there (no fence-regression on such a store).
			p = Probe{Scenario: "failover-loss", Mutex: []string{store + "/" + mode + "-delay-*"}}
		case s == "sentinel" || s == "wait":
			p = Probe{Scenario: "failover-loss", Mutex: []string{o.failoverMode() + "-delay-*"}}
			if o.Kind == Fenced && s == "sentinel" {
				p.Data, p.DataBy, p.dataIn = []string{"sentinel/lagging-followers"}, results.ReissuedTokens, "fence-regression"
			}
		case strings.HasSuffix(s, "-3"):
			p = Probe{Scenario: "etcd-leader-kill", Mutex: []string{s + "-leader-kill"}}
			if o.Kind == Fenced {
				p.Data, p.DataBy = []string{s + "-leader-kill"}, results.StaleAccepted
			}
		default:
			return Probe{}, false
		}
	case ClientPause:
		p = Probe{Scenario: "pause-past-ttl", Mutex: []string{s + "/no-watchdog", s + "/watchdog"},
			Data: []string{s + "/no-watchdog", s + "/watchdog"}, DataBy: results.StaleAccepted}
		if o.Kind == Fenced {
			p.Data, p.refused = []string{s + "/no-watchdog-fenced", s + "/watchdog-fenced"}, results.StaleRejected
		}
	case RestartEmpty:
		switch {
		case strings.HasPrefix(s, "redlock"):
			p = Probe{Scenario: "redlock-restart", Mutex: []string{s + "/restart-empty"}}
			if o.Kind == Fenced {
				p.Data, p.DataBy, p.dataIn = []string{"max-fence/restart-empty"}, results.ReissuedTokens, "redlock-fence"
			}
		case s == "etcd" || s == "zookeeper":
			p = Probe{Scenario: "etcd-leader-kill", Mutex: []string{s + "-lone-member-disk-loss"}}
			if o.Kind == Fenced {
				p.Data, p.DataBy = []string{s + "-lone-member-disk-loss"}, results.ReissuedTokens
			}
		default:
			return Probe{}, false
		}
	case ClockJump:
		switch {
		case s == "single":
			p = Probe{Scenario: "single-clock-skew", Mutex: []string{"jump-forward"}}
			if o.Kind == Fenced {
				// lost-updates breaks a single master's lock by a clock jump; "lock" is
				// the lock's own fence, the one this option uses.
				p.Data, p.DataBy, p.dataIn = []string{"clock-jump/single/lock/fenced"}, results.StaleApplied, "lost-updates"
			}
		case strings.HasPrefix(s, "redlock"):
			// The scenario names redlock's variants bare and other clients' with a prefix.
			prefix := s + "/"
			if s == "redlock" {
				prefix = ""
			}
			p = Probe{Scenario: "redlock-kleppmann", Mutex: []string{prefix + "jump"}}
		default:
			return Probe{}, false
		}
	}
	// A fenced option's data side must be measured by a fenced variant: the lock's
	// own violations say nothing of what the fence let through.
	if o.Kind == Fenced && p.Data == nil {
		p.Data, p.DataBy = []string{}, ""
	}
	return p, true
}

// failoverMode is the failover-loss mode that measures the option's guard.
func (o *Option) failoverMode() string {
	_, mode, keyed := KeyedFailoverOf(o.Probe)
	switch {
	case o.Mode != "":
		return o.Mode
	case keyed:
		return mode
	case o.Probe == "wait":
		return "wait1"
	}
	return "none"
}

// Matching lists the variants of scenario in reports whose name matches a pattern.
func Matching(reports []*results.Report, scenario string, patterns []string) []*results.Variant {
	var out []*results.Variant
	for _, rep := range reports {
		if rep == nil || rep.Scenario != scenario {
			continue
		}
		for _, v := range rep.Variants {
			for _, p := range patterns {
				if wildcard(p, v.Name) {
					out = append(out, v)
					break
				}
			}
		}
	}
	return out
}

// wildcard matches name against p, "*" matching any run of characters, as claims.go.
func wildcard(p, name string) bool {
	parts := strings.Split(p, "*")
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	name = name[len(parts[0]):]
	for i, part := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(name, part)
		}
		j := strings.Index(name, part)
		if j < 0 {
			return false
		}
		name = name[j+len(part):]
	}
	return name == ""
}
