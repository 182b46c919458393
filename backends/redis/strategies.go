package redis

import (
	"time"

	"github.com/lockbench/lockbench/backend"
)

// The presets that measure the four strategies of one master, its replicas, Sentinel
// and Redlock: every matrix, the scaling ones included (one master and Redlock also
// take the quick matrix's open-loop sweep, Redlock's two clients its slow-node one).
var everyPreset = []backend.Preset{backend.RunMatrix, backend.UpdateMatrix, backend.CapacitySearch,
	backend.ScalingMatrix}

// redlock5 is the deployment a synthetic run records for five-node Redlock.
const redlock5 = "redlock-5 (5 masters)"

// singleStrategies run on one master: the SET NX lock, and the two lock-free ways
// that let Redis judge an account's update (locks and updates build them).
var singleStrategies = []backend.Strategy{
	{Name: "single", Position: 0, SafetyRank: backend.RankOneMaster,
		Presets: append([]backend.Preset{backend.OpenLoopSweep}, everyPreset...),
		Ladder:  &backend.Rung{Adds: "one Redis master; the lock dies with it"},
		Synthetic: &backend.Synthetic{Attempt: 70 * time.Microsecond, RoundTrips: 1, Capacity: 40000,
			Topology: "single", Small: true, OpenLoop: backend.BothMatrix},
		Capabilities: []backend.Capability{backend.BaselineCommand},
		// lost-updates breaks one master's lock by a clock jump behind the lock's own fence.
		Probes: []backend.Probe{{Fault: backend.ClockJumpFault, Scenario: "single-clock-skew",
			Lock: []string{"jump-forward"}, Mechanism: backend.MasterClockJump,
			Fenced: &backend.DataProbe{Scenario: "lost-updates", Variants: []string{"clock-jump/single/lock/fenced"},
				Measure: "stale_changes_applied"}},
			// The master as deployed keeps no AOF: appendfsync no, which never fsyncs, is its host crash.
			{Fault: backend.HostCrashFault, Scenario: "host-crash", Lock: []string{"single/appendfsync-no"},
				Mechanism: backend.UnsyncedLoss}}},
	{Name: "lua-cas", Position: 21},
	{Name: "watch-multi", Position: 22},
	// bsm/redislock's client on one master (backends/redis/redislock/bsm.go).
	{Name: "bsm-redislock", Position: 28, SafetyRank: backend.RankOneMaster},
	// rueidislock on one master, woken by client-side caching or polling (backends/redis/redislock/rueidislock.go).
	{Name: "rueidislock", Position: 29, SafetyRank: backend.RankOneMaster},
	{Name: "rueidislock-nocache", Position: 30, SafetyRank: backend.RankOneMaster},
	// bsm-redislock waiting with its LinearBackoff or ExponentialBackoff (backends/redis/redislock/bsmbackoff.go).
	{Name: "bsm-redislock-linear", Position: 31, SafetyRank: backend.RankOneMaster},
	{Name: "bsm-redislock-exp", Position: 32, SafetyRank: backend.RankOneMaster},
	waitAOFLocal,
}

// replicatedStrategies are SET NX then WAIT: wait (two replicas, one acknowledges) and
// the WAIT shapes of the scaling-wait-replicas axis (scaling.go).
var replicatedStrategies = append([]backend.Strategy{
	{Name: "wait", Position: 1, SafetyRank: backend.RankReplicaAck, Presets: everyPreset,
		Ladder: &backend.Rung{Adds: "the key reached a replica (`WAIT`) before the lock is granted"},
		Synthetic: &backend.Synthetic{Attempt: 200 * time.Microsecond, RoundTrips: 2, Capacity: 16000,
			Topology: "replicated (master + 2 replicas)", Small: true, OpenLoop: backend.FullMatrix},
		Probes: []backend.Probe{{Fault: backend.FailoverFault, Scenario: "failover-loss",
			Lock: []string{"wait1-delay-*"}}}},
	waitAOFReplica, waitAOFBoth,
}, sizedStrategies(waitShapes)...)

var sentinelStrategies = []backend.Strategy{
	{Name: "sentinel", Position: 2, SafetyRank: backend.RankFailover, Presets: everyPreset,
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
}

// redlockStrategies are redsync's: five nodes waiting for every answer or for a
// majority, and the three- and seven-node sizes of the scaling-redlock-nodes axis (scaling.go).
var redlockStrategies = append([]backend.Strategy{
	{Name: "redlock", Position: 3, SafetyRank: backend.RankMajority,
		Presets: append([]backend.Preset{backend.SlowNodeSweep, backend.OpenLoopSweep}, everyPreset...),
		Ladder:  &backend.Rung{Adds: "a majority of independent masters must grant the key"}, Scaling: onRedlockAxis(5),
		Synthetic: &backend.Synthetic{Attempt: 180 * time.Microsecond, RoundTrips: 1, Capacity: 3600, Topology: redlock5,
			Small:    true,
			OpenLoop: backend.BothMatrix, SlowNode: backend.WaitsForSlowNode},
		Probes: append(redlockProbes("redlock", backend.QuorumNodeLoss),
			kleppmannProbe("jump")), Capabilities: awaitsEveryNode},
	{Name: "redlock-failfast", Position: 4, SafetyRank: backend.RankMajority,
		Presets: []backend.Preset{backend.SlowNodeSweep},
		Synthetic: &backend.Synthetic{Attempt: 165 * time.Microsecond, RoundTrips: 1, Capacity: 3800, Topology: redlock5,
			Small:    true,
			SlowNode: backend.MajorityWithoutSlowNode},
		Probes: append(redlockProbes("redlock-failfast", backend.QuorumNodeLoss), kleppmannProbe("redlock-failfast/jump"))},
}, sizedStrategies(redlockSizes)...)

// awaitsEveryNode: redsync without fail-fast waits for every node's answer (redlock and
// its sizes); redlock-failfast returns at a majority.
var awaitsEveryNode = []backend.Capability{backend.AwaitsEveryNode}

// redlockProbes are where a Redlock client is measured on a node restarting empty
// (redlock-restart, and the max-fence client's tokens in redlock-fence), and on a
// node's host crash (redlock-restart). Only the
// five-node clients name the quorum mechanism: redlock-quorum measures on five nodes
// how often their grants sit on exactly a quorum, which sizes the restart.
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
