// Package all registers every scenario of the safety lab: import it for its effect
// wherever scenarios are run, listed or planned by name.
package all

import (
	// single-clock-skew, sentinel-clock-skew, redlock-clock-jump, redlock-clock-rate, redlock-kleppmann,
	// rueidislock-clock-behind
	_ "github.com/lockbench/lockbench/safety/scenarios/clock"
	_ "github.com/lockbench/lockbench/safety/scenarios/consensus"   // etcd-leader-kill, fence-regression
	_ "github.com/lockbench/lockbench/safety/scenarios/failover"    // failover-loss
	_ "github.com/lockbench/lockbench/safety/scenarios/hostcrash"   // host-crash
	_ "github.com/lockbench/lockbench/safety/scenarios/lag"         // replication-lag
	_ "github.com/lockbench/lockbench/safety/scenarios/lostupdates" // lost-updates
	// sentinel-split-brain, cluster-split-brain, redlock-partition, consensus-partition
	_ "github.com/lockbench/lockbench/safety/scenarios/partition"
	_ "github.com/lockbench/lockbench/safety/scenarios/redlock" // redlock-restart, redlock-quorum, redlock-fence
	// setnx-expire, unsafe-release, check-then-delete, check-then-write-lock
	_ "github.com/lockbench/lockbench/safety/scenarios/release"
	_ "github.com/lockbench/lockbench/safety/scenarios/ttl"            // pause-past-ttl, ttl-tradeoff
	_ "github.com/lockbench/lockbench/safety/scenarios/waitobjections" // wait-objections
)
