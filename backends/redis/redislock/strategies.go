// Package redislock is Redis's lockers: SET NX PX with a Lua release (single), the
// same plus WAIT (wait), through sentinels (sentinel) and Redlock over independent
// masters, and the libraries Go teams run; each file declares the strategies it builds,
// with what every list knows of them (Strategies).
package redislock

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/resources/redisaccount"
	"github.com/lockbench/lockbench/topologies"
)

// declared are the strategies each file of this package declares, from its own init.
var declared []locks.Strategy

func declare(s ...locks.Strategy) { declared = append(declared, s...) }

// Strategies are Redis's, in the order of their positions (whichever file declared them).
func Strategies() []locks.Strategy {
	out := slices.Clone(declared)
	slices.SortFunc(out, func(a, b locks.Strategy) int { return cmp.Compare(a.Position, b.Position) })
	return out
}

// lockCommands take, release and extend a SET NX lock; the scripts are loaded once and
// called by EVALSHA, with EVAL as go-redis's fallback on NOSCRIPT. INCR is the fencing
// counter a fenced locker keeps on the lock's own connection (it follows its failovers).
var lockCommands = []string{"SET", "EVALSHA", "EVAL", "SCRIPT LOAD", "INCR"}

// The presets that measure the four strategies of one master, its replicas, Sentinel
// and Redlock: every matrix, the scaling ones included (one master and Redlock also
// take the quick matrix's open-loop sweep, Redlock's two clients its slow-node one).
var everyPreset = []backend.Preset{backend.RunMatrix, backend.UpdateMatrix, backend.CapacitySearch,
	backend.ScalingMatrix}

// redlock5 is the deployment a synthetic run records for five-node Redlock.
const redlock5 = "redlock-5 (5 masters)"

var (
	oneMaster  = backend.Spec{Kind: topologies.Single}
	replicated = backend.Spec{Kind: topologies.Replicated}
)

func init() {
	declare(
		atOneMaster(locks.Strategy{Strategy: backend.Strategy{Name: "single", Position: 0, SafetyRank: backend.RankOneMaster,
			Presets: append([]backend.Preset{backend.OpenLoopSweep}, everyPreset...),
			Ladder:  &backend.Rung{Adds: "one Redis master; the lock dies with it"},
			Synthetic: &backend.Synthetic{Attempt: 70 * time.Microsecond, RoundTrips: 1, Capacity: 40000,
				Topology: "single", Small: true, OpenLoop: backend.BothMatrix},
			BaselineCommand: true,
			// lost-updates breaks one master's lock by a clock jump behind the lock's own fence.
			Probes: []backend.Probe{{Fault: backend.ClockJumpFault, Scenario: "single-clock-skew",
				Lock: []string{"jump-forward"}, Mechanism: backend.MasterClockJump,
				Fenced: &backend.DataProbe{Scenario: "lost-updates", Variants: []string{"clock-jump/single/lock/fenced"},
					Measure: "stale_changes_applied"}},
				// The master as deployed keeps no AOF: appendfsync no, which never fsyncs, is its host crash.
				{Fault: backend.HostCrashFault, Scenario: "host-crash", Lock: []string{"single/appendfsync-no"},
					Mechanism: backend.UnsyncedLoss}}},
			Spec: oneMaster, Commands: lockCommands},
			func(ctx context.Context, addr string, o locks.Options) (locks.Locker, error) {
				return NewSingle(ctx, addr, o.Options)
			}),
		// The two lock-free ways on one master: Redis judges the account's update (package updates builds them).
		locks.Strategy{Strategy: backend.Strategy{Name: string(redisaccount.LuaCAS), Position: 21}, Spec: oneMaster},
		locks.Strategy{Strategy: backend.Strategy{Name: string(redisaccount.WatchMulti), Position: 22}, Spec: oneMaster},
		atOneMaster(locks.Strategy{Strategy: backend.Strategy{Name: "wait", Position: 1, SafetyRank: backend.RankReplicaAck,
			Presets: everyPreset,
			Ladder:  &backend.Rung{Adds: "the key reached a replica (`WAIT`) before the lock is granted"},
			Synthetic: &backend.Synthetic{Attempt: 200 * time.Microsecond, RoundTrips: 2, Capacity: 16000,
				Topology: "replicated (master + 2 replicas)", Small: true, OpenLoop: backend.FullMatrix},
			Probes: []backend.Probe{{Fault: backend.FailoverFault, Scenario: "failover-loss",
				Lock: []string{"wait1-delay-*"}}}},
			Spec: replicated, Commands: append([]string{"WAIT"}, lockCommands...)},
			func(ctx context.Context, addr string, o locks.Options) (locks.Locker, error) {
				w := o.Wait
				w.Options = o.Options
				return NewWait(ctx, addr, w)
			}),
		locks.Strategy{Strategy: backend.Strategy{Name: "sentinel", Position: 2, SafetyRank: backend.RankFailover,
			Presets: everyPreset,
			Synthetic: &backend.Synthetic{Attempt: 75 * time.Microsecond, RoundTrips: 1, Capacity: 27000,
				Topology: "sentinel (master + 2 replicas + 3 sentinels)"},
			Probes: []backend.Probe{{Fault: backend.FailoverFault, Scenario: "failover-loss", Lock: []string{"none-delay-*"},
				Mechanism: backend.AsyncPromotion,
				Fenced: &backend.DataProbe{Scenario: "fence-regression", Variants: []string{"sentinel/lagging-followers"},
					Measure: "reissued_tokens"}},
				// SENTINEL FAILOVER with no guard; no scenario measures a fence through it.
				{Fault: backend.PlannedFailoverFault, Scenario: "failover-loss", Lock: []string{"planned-delay-*"}},
				// The master SIGSTOPped until a replica is promoted, then resumed: a zombie.
				{Fault: backend.MasterStallFault, Scenario: "failover-loss", Lock: []string{"zombie"}}},
			Guards: []backend.Guard{
				{Mode: "wait2", Name: "sentinel + WAIT 2"},
				{Mode: "min-replicas", Name: "sentinel + min-replicas-to-write 1"}}},
			Spec: backend.Spec{Kind: topologies.Sentinel}, Commands: lockCommands,
			Build: func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
				return NewSentinel(ctx, topologies.Addrs(topo.Sentinels()),
					SentinelOptions{Options: o.Options, MasterName: topo.Spec().MasterName})
			}},
		locks.Strategy{Strategy: backend.Strategy{Name: "redlock", Position: 3, SafetyRank: backend.RankMajority,
			Presets: append([]backend.Preset{backend.SlowNodeSweep, backend.OpenLoopSweep}, everyPreset...),
			Ladder:  &backend.Rung{Adds: "a majority of independent masters must grant the key"},
			Scaling: onRedlockAxis(5),
			Synthetic: &backend.Synthetic{Attempt: 180 * time.Microsecond, RoundTrips: 1, Capacity: 3600, Topology: redlock5,
				Small: true, OpenLoop: backend.BothMatrix, SlowNode: backend.WaitsForSlowNode},
			Probes:          append(redlockProbes("redlock", backend.QuorumNodeLoss), kleppmannProbe("jump")),
			AwaitsEveryNode: true},
			Spec: backend.Spec{Kind: topologies.Redlock}, Commands: lockCommands, Build: redlockBuilder("redlock", false),
			Addressed: redlockAt},
		// redlock-failfast answers once a majority has, instead of waiting for every node:
		// the variant to compare when one node is slow.
		locks.Strategy{Strategy: backend.Strategy{Name: "redlock-failfast", Position: 4, SafetyRank: backend.RankMajority,
			Presets: []backend.Preset{backend.SlowNodeSweep},
			Synthetic: &backend.Synthetic{Attempt: 165 * time.Microsecond, RoundTrips: 1, Capacity: 3800, Topology: redlock5,
				Small: true, SlowNode: backend.MajorityWithoutSlowNode},
			Probes: append(redlockProbes("redlock-failfast", backend.QuorumNodeLoss),
				kleppmannProbe("redlock-failfast/jump"))},
			Spec: backend.Spec{Kind: topologies.Redlock}, Commands: lockCommands,
			Build: redlockBuilder("redlock-failfast", true)},
	)
}

// atOneMaster is s built over one master: the topology's, or the one address a scenario
// gives.
func atOneMaster(s locks.Strategy, build func(ctx context.Context, addr string, o locks.Options) (locks.Locker,
	error)) locks.Strategy {
	s.Build = func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
		return build(ctx, topo.Masters()[0].Addr(), o)
	}
	s.Addressed = func(ctx context.Context, addrs []string, o locks.Options) (locks.Locker, error) {
		if len(addrs) != 1 {
			return nil, fmt.Errorf("%s: one master's address, got %d", s.Name, len(addrs))
		}
		return build(ctx, addrs[0], o)
	}
	return s
}

// redlockProbes are where a Redlock client is measured on a node restarting empty
// (redlock-restart, and the max-fence client's tokens in redlock-fence), and on a
// node's host crash (redlock-restart). Only the five-node clients name the quorum
// mechanism: redlock-quorum measures on five nodes how often their grants sit on
// exactly a quorum, which sizes the restart.
func redlockProbes(name string, restart backend.Mechanism) []backend.Probe {
	return []backend.Probe{{Fault: backend.RestartEmptyFault, Scenario: "redlock-restart",
		Lock: []string{name + "/restart-empty"}, Mechanism: restart,
		Fenced: &backend.DataProbe{Scenario: "redlock-fence", Variants: []string{"max-fence/restart-empty"},
			Measure: "reissued_tokens"}},
		// Its nodes as deployed keep no AOF: a node's host crash under appendfsync no, which
		// never fsyncs, loses the key there as an empty restart does.
		{Fault: backend.HostCrashFault, Scenario: "redlock-restart", Lock: []string{name + "/host-crash-no"},
			Mechanism: restart}}
}

// kleppmannProbe is a node's clock jump under a Redlock client, as redlock-kleppmann
// runs the two clients it can (redlock's variant bare, the other's with its name).
func kleppmannProbe(variant string) backend.Probe {
	return backend.Probe{Fault: backend.ClockJumpFault, Scenario: "redlock-kleppmann", Lock: []string{variant},
		Mechanism: backend.QuorumNodeClockJump}
}

// redlockBuilder builds Redlock over every master of the topology, under name.
func redlockBuilder(name string, failFast bool) locks.Builder {
	return func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
		o.Redlock.FailFast = failFast
		l, err := redlockAt(ctx, topologies.Addrs(topo.Masters()), o)
		if err == nil {
			l.(*redlock).name = name
		}
		return l, err
	}
}

// redlockAt is Redlock over the masters at addrs, with o's Redlock and connection settings.
func redlockAt(ctx context.Context, addrs []string, o locks.Options) (locks.Locker, error) {
	r := o.Redlock
	r.Options = o.Options
	return NewRedlock(ctx, addrs, r)
}
