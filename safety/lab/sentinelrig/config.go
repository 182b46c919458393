package sentinelrig

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// Guard is what stands between the first grant and the failover: one mode of
// the scenario, read once from its name.
type Guard struct {
	Mode         string // as --param modes spells it
	WaitReplicas int    // SET then WAIT this many replicas; 0 for no WAIT
	MinReplicas  bool   // min-replicas-to-write 1 (max-lag 10 s) on every data node
	Zombie       bool   // stop the master through the failover and resume it, instead of killing it
	Planned      bool   // SENTINEL FAILOVER instead of the kill: the old master lives on, demoted
	// WaitAOF is the WAITAOF strategy whose grant this is (SET, then WAITAOF): it runs
	// on a Valkey deployment with an append-only file on every data node (Durable).
	WaitAOF string
	// WaitAOFCommand is that strategy's command after the SET, for the description.
	WaitAOFCommand string
}

// Unguarded is a grant that nothing waits for: SET NX and go.
func (g Guard) Unguarded() bool {
	return g.WaitReplicas == 0 && !g.MinReplicas && !g.Zombie && g.WaitAOF == ""
}

// Failover says how the master goes, for a variant's description.
func (g Guard) Failover(delay time.Duration) string {
	if g.Planned {
		return fmt.Sprintf("SENTINEL FAILOVER (planned: the master lives on and is demoted) %v after the grant", delay)
	}
	return fmt.Sprintf("master SIGKILLed %v after the grant", delay)
}

// Grant says how g takes the lock, for a variant's description.
func (g Guard) Grant(waitTimeout time.Duration) string {
	switch {
	case g.WaitReplicas > 0:
		return fmt.Sprintf("SET NX PX on the master, then WAIT %d %d", g.WaitReplicas, waitTimeout.Milliseconds())
	case g.WaitAOF != "":
		return fmt.Sprintf("%s: SET NX PX on the master, then %s %d (Valkey, appendfsync %s on every data node)",
			g.WaitAOF, g.WaitAOFCommand, waitTimeout.Milliseconds(), DurableFsync)
	case g.MinReplicas:
		return "SET NX PX through sentinel, min-replicas-to-write 1 (max-lag 10 s) on every data node"
	}
	return "SET NX PX through sentinel"
}

// Config is the scenario's params, read once.
type Config struct {
	// Strategy is the strategy whose store reaches the deployments; it must fit the
	// rig (Fits). "" is DefaultStrategy's.
	Strategy                      string
	Guards                        []Guard
	Delays                        []time.Duration
	LagMax, WaitTimeout           time.Duration
	Cut                           string // as --param cut spells it
	LinkKill                      bool
	DownAfter, FailoverTimeout    time.Duration
	PromotionTimeout, ZombieWatch time.Duration
	Reuse                         bool
	Deployments                   int // in rotation per trial running at once
	ReformTimeout                 time.Duration
	// Parallel is how many trials run at once, each on a deployment of its own (0
	// counts as 1).
	Parallel int
	// Durable runs Valkey with an append-only file under DurableFsync on every data
	// node: what a WAITAOF guard needs to count fsyncs.
	Durable bool
}

// DurableFsync is a durable deployment's appendfsync: a replica under everysec made
// each WAITAOF wait about a second.
const DurableFsync = "always"

// parallel is Parallel, at least 1.
func (c Config) parallel() int { return max(c.Parallel, 1) }

// B waits this long for a promoted master that refuses writes for want of replicas.
const SecondClientPatience = 3 * time.Second

// CutDescription says how the replicas miss the grant, for a variant's description.
func (c Config) CutDescription() string {
	if c.LinkKill {
		return "replicas SIGSTOPped and their links killed before the grant, resumed after the kill"
	}
	return fmt.Sprintf("each replica paused (CLIENT PAUSE) for up to %v just before the grant", c.LagMax)
}

// spec is the deployment every trial runs on, fresh or re-formed: the store's own
// (base) with the rig's size and timings.
func (c Config) spec(base backend.Spec) backend.Spec {
	base.Replicas, base.DownAfter, base.FailoverTimeout = 2, c.DownAfter, c.FailoverTimeout
	// A re-formed node full-syncs from an RDB on disk: after a diskless sync Redis
	// 7.0 streams nothing to the replica until its once-a-second first ACK.
	base.ExtraConfig = []string{"repl-diskless-sync no"}
	if c.Durable {
		base.Server, base.AppendFsync = backend.ServerValkey, DurableFsync
	}
	return base
}

// timers tighten sentinel where the scenario allows (measured on this machine):
//   - pings and reconnections every half of down-after: after a failover a sentinel
//     reaches the new master only a ping period after it last tried the dead one, and
//     a new master out of reach for down-after is failed over in turn (flapping);
//   - loss modes: replicas INFOed every 5 ping periods less 350 ms. Sentinel promotes
//     only a replica whose INFO is younger than 5 ping periods, and during a failover
//     it INFOs replicas once a second, counted from the last INFO before it: so it sees
//     the promotion sooner the older that INFO may be. With down-after 400 ms (ping
//     200, INFO 650) a trial took 1.25 s at the median, against 1.44 s with 300 ms
//     (ping 150, INFO 400) and 1.5 s with INFO at 100 ms;
//   - the zombie keeps sentinel's own INFO and hello periods (10 s, 2 s): they decide
//     how long a resumed master goes on taking writes.
func (c Config) timers(zombie bool) redisadmin.SentinelTimers {
	ping := min(max(c.DownAfter/2, 120*time.Millisecond), time.Second)
	t := redisadmin.SentinelTimers{PingPeriod: ping, AskPeriod: 100 * time.Millisecond}
	if !zombie {
		t.InfoPeriod = min(max(5*ping-350*time.Millisecond, 100*time.Millisecond), 800*time.Millisecond)
	}
	return t
}

// ReadDeploymentParams reads the params every scenario on the sentinel deployments
// shares: how sentinel fails over, and how the deployments are kept between trials.
func ReadDeploymentParams(p lab.Values) Config {
	return Config{DownAfter: p.Duration("down-after"), FailoverTimeout: p.Duration("failover-timeout"),
		PromotionTimeout: p.Duration("promotion-timeout"), Reuse: p.Bool("reuse"), Deployments: p.Int("deployments"),
		ReformTimeout: p.Duration("reform-timeout")}
}
