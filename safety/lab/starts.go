package lab

import (
	"github.com/lockbench/lockbench/backend"
)

// Starts is what a scenario starts whatever its params, beside the topologies of its
// strategies param: preflight checks that the machine can run them before a trial does.
type Starts struct {
	Kinds []backend.Kind
	// Clocks says whether the topology of strategy ("" for Kinds) has its clocks faked
	// (libfaketime on processes); nil is never.
	Clocks func(v Values, strategy string) bool
}

// fakedClocks fakes the clocks of every topology a scenario starts.
func fakedClocks(Values, string) bool { return true }

// ClocksFaked is Clocks, false where it is nil.
func (s Starts) ClocksFaked(v Values, strategy string) bool {
	return s.Clocks != nil && s.Clocks(v, strategy)
}

// StartsKinds is a scenario that starts kinds of its own (none: only its strategies
// param's topologies) with real clocks.
func StartsKinds(kinds ...backend.Kind) Starts { return Starts{Kinds: kinds} }

// StartsFaked is StartsKinds with every clock it starts faked.
func StartsFaked(kinds ...backend.Kind) Starts { return Starts{Kinds: kinds, Clocks: fakedClocks} }
