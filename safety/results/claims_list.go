package results

// The checks of a claim, in the words the table prints.
func always(role Role, says string, vs ...string) Check {
	return Check{Kind: InEvery, Role: role, Variants: vs, Says: says}
}
func never(role Role, says string, vs ...string) Check {
	return Check{Kind: InNone, Role: role, Variants: vs, Says: says}
}
func occurs(says string, vs ...string) Check {
	return Check{Kind: Occurs, Role: Breaking, Variants: vs, Says: says}
}

// fewer: tested breaks less often than than, at one condition at least (each, if atEach).
func fewer(says string, atEach bool, tested, than []string) Check {
	return Check{Kind: Fewer, Role: Fix, Variants: tested, Than: than, AtEach: atEach, Says: says}
}

func names(vs ...string) []string { return vs }

// WriteupClaims is every claim of the write-up a scenario measures, in its order.
var WriteupClaims = []WriteupClaim{
	{Step: "step 1", Claim: "SETNX then EXPIRE leaves a lock nobody frees if the client dies between them; SET NX PX " +
		"does not",
		Scenario: "setnx-expire", By: Orphans, Checks: []Check{
			always(Breaking, "killed between SETNX and EXPIRE, the key is orphaned", "setnx-then-expire"),
			never(Fix, "killed after SET NX PX, the key expires", "set-nx-px")}},
	{Step: "step 2", Claim: "a plain DEL frees the next holder's lock after the TTL ran out; a Lua compare-and-delete " +
		"does not",
		Scenario: "unsafe-release", By: Violations, Checks: []Check{
			always(Breaking, "A's late DEL lets a third client in beside B", "plain-del"),
			never(Fix, "A's late Lua release leaves B's lock", "lua-release")}},
	{Step: "step 2", Claim: "releasing by GET, compare, then DEL deletes the next holder's lock when the TTL runs out " +
		"between them; the Lua release does not",
		Scenario: "check-then-delete", By: CutShort, Checks: []Check{
			always(Breaking, "A paused between GET and DEL cuts B's lock short", "get-then-del/pause"),
			never(Fix, "A paused at the same point, then the Lua release: B's lock is not cut short", "lua/pause"),
			fewer("under load, the Lua release cuts fewer locks short than GET-compare-DEL", false, names("lua/load"),
				names("get-then-del/load"))}},
	{Step: "step 3", Claim: "a holder paused past its TTL is a second holder, watchdog or not: B is granted the lock A " +
		"still acts on",
		Scenario: "pause-past-ttl", By: Violations, Checks: []Check{
			always(Breaking, "paused past its lease, A holds the lock beside B", "*/no-watchdog", "*/watchdog")}},
	{Step: "step 3", Claim: "a holder paused past its TTL still writes, watchdog or not; a fenced resource refuses its " +
		"stale write",
		Scenario: "pause-past-ttl", By: StaleAccepted, Checks: []Check{
			always(Breaking, "paused past its lease, A's write lands after B's", "*/no-watchdog", "*/watchdog"),
			never(Fix, "the fenced resource refuses that write", "*-fenced")}},
	{Step: "step 3", Claim: "asking whether the lock is still valid does not help: the check says valid, the write " +
		"lands after expiry; a fence refuses it",
		Scenario: "check-then-write-lock", By: StaleAccepted, Checks: []Check{
			always(Breaking,
				"once the check has lost the race (judged trials), the unfenced resource takes the stale write", "*/unfenced"),
			never(Fix, "the fenced resource refuses it", "*/fenced")}},
	{Step: "step 3", Claim: "a TTL shorter than a constant work expires mid-work; one longer does not (no watchdog)",
		Scenario: "ttl-tradeoff", By: ExpiredMidWork, Checks: []Check{
			always(Breaking, "TTL below the work", "constant/ttl-25ms", "constant/ttl-50ms"),
			never(Fix, "TTL above the work", "constant/ttl-200ms", "constant/ttl-400ms")}},
	{Step: "step 3", Claim: "for every hold distribution run (constant, exponential, lognormal, Pareto, all of one " +
		"mean), a TTL of 4 x the mean hold expires mid-work less often than one of a quarter of it",
		Scenario: "ttl-tradeoff", By: ExpiredMidWork, Checks: []Check{
			fewer("400 ms against 25 ms, each distribution apart", true,
				names("constant/ttl-400ms", "exponential/ttl-400ms", "lognormal/ttl-400ms", "pareto/ttl-400ms"),
				names("constant/ttl-25ms", "exponential/ttl-25ms", "lognormal/ttl-25ms", "pareto/ttl-25ms"))}},
	{Step: "step 3", Claim: "with heavy-tailed (Pareto) work no TTL run is long enough: the longest still expires " +
		"mid-work",
		Scenario: "ttl-tradeoff", By: ExpiredMidWork, Checks: []Check{
			occurs("the longest TTL run expires mid-work", "pareto/ttl-400ms")}},
	{Step: "step 3", Claim: "the price of a long TTL: after its holder crashes the lock stays blocked for the whole TTL " +
		"(none freed earlier)",
		Scenario: "ttl-tradeoff", By: BlockedShort, Checks: []Check{
			never(Breaking, "no crash frees the lock before its TTL", "crash/*")}},
	{Step: "step 4", Claim: "a Sentinel failover promotes a replica without the lock: a second client takes it",
		Scenario: "failover-loss", By: LostLocks, Checks: []Check{
			occurs("with no guard, some failover loses an acknowledged lock", "none-delay-*")}},
	{Step: "step 4", Claim: "WAIT 1 narrows the loss window: it loses fewer locks than no guard",
		Scenario: "failover-loss", By: LostLocks, Checks: []Check{
			fewer("WAIT 1 loses fewer than no guard at some delay (each delay tested apart)", false, names("wait1-delay-*"),
				names("none-delay-*"))}},
	{Step: "step 4", Claim: "WAIT 1 does not close the window",
		Scenario: "failover-loss", By: LostLocks, Checks: []Check{
			occurs("some failover loses a lock WAIT 1 acknowledged", "wait1-delay-*")}},
	// min-replicas-to-write as run by the delay variants: every lag (at most lag-max,
	// 50 ms by default) far below its max-lag of 10 s, so the master counts both
	// replicas good. This is the crash case it cannot see, and these claims say so.
	{Step: "step 4", Claim: "in a crash with every replica's lag below its max-lag (the case it cannot see), " +
		"min-replicas-to-write loses fewer locks than no guard",
		Scenario: "failover-loss", By: LostLocks, Checks: []Check{
			fewer(
				"min-replicas-to-write 1 (max-lag 10 s) loses fewer than no guard at some delay (each delay tested apart)", false,
				names(
					"min-replicas-delay-*"), names("none-delay-*"))}},
	{Step: "step 4", Claim: "in a crash with every replica's lag below its max-lag, min-replicas-to-write does not " +
		"close the window",
		Scenario: "failover-loss", By: LostLocks, Checks: []Check{
			occurs("some failover loses a lock granted under min-replicas-to-write (max-lag 10 s)", "min-replicas-delay-*")}},
	// Where it bites: every replica stopped past max-lag. A refused grant is no lock,
	// so this claim counts refusals, never locks kept.
	{Step: "step 4", Claim: "with every replica lagging past its max-lag, min-replicas-to-write refuses the grant " +
		"(NOREPLICAS): no lock is granted, so none is there to lose",
		Scenario: "failover-loss", By: GrantsRefused, Checks: []Check{
			always(Fix, "every replica stopped until the master counts none good: A's SET is refused", "min-replicas-stalled")}},
	{Step: "step 4", Claim: "WAIT 2 (every replica) narrows the loss window: it loses fewer locks than no guard",
		Scenario: "failover-loss", By: LostLocks, Checks: []Check{
			fewer("WAIT 2 loses fewer than no guard at some delay (each delay tested apart)", false, names("wait2-delay-*"),
				names("none-delay-*"))}},
	// The same claims on a Redis Cluster (failover-loss --param strategies=cluster):
	// the key's master killed, a replica promoted by the cluster bus. Its variants
	// carry the store's name, so the sentinel rows above never read them.
	{Step: "step 4", Claim: "a Redis Cluster failover promotes a replica without the lock: a second client takes it",
		Scenario: "failover-loss", By: LostLocks, Checks: []Check{
			occurs("with no guard, a cluster failover loses an acknowledged lock", "cluster/none-delay-*")}},
	{Step: "step 4", Claim: "on a Redis Cluster, WAIT 1 on the key's master narrows the loss window: it loses fewer " +
		"locks than no guard",
		Scenario: "failover-loss", By: LostLocks, Checks: []Check{
			fewer("WAIT 1 loses fewer than no guard on a cluster at some delay (each delay tested apart)", false, names(
				"cluster/wait1-delay-*"), names("cluster/none-delay-*"))}},
	// Host patching fails over on request (SENTINEL FAILOVER): the old master lives on
	// and the replica is promoted by command, not after a crash.
	{Step: "step 4", Claim: "a planned Sentinel failover (SENTINEL FAILOVER, as host patching does) also promotes a " +
		"replica without the lock",
		Scenario: "failover-loss", By: LostLocks, Checks: []Check{
			occurs("with no guard, some planned failover loses an acknowledged lock", "planned-delay-*")}},
	{Step: "step 4", Claim: "an old master that comes back takes writes until it is demoted (split brain)",
		Scenario: "failover-loss", By: Violations, Checks: []Check{
			occurs("stopped through the failover, then resumed, the old master grants beside the new one", "zombie")}},
	{Step: "step 4", Claim: "WAIT 1's objections: the acknowledging replica is not the one promoted, or dies with the " +
		"master, or restarts empty with it",
		Scenario: "wait-objections", By: LostLocks, Checks: []Check{
			occurs("the lagging replica promoted by priority loses the lock WAIT 1 acknowledged", "a1-*-wait1"),
			occurs("the acknowledger dying with the master loses it", "a2-*-wait1"),
			occurs("master and acknowledger restarting empty lose it", "b-*-wait1")}},
	{Step: "step 4", Claim: "WAIT 2 answers the first two objections (another replica promoted, the acknowledging one " +
		"dead)",
		Scenario: "wait-objections", By: LostLocks, Checks: []Check{
			never(Fix, "with WAIT 2 the promoted replica has the lock", "a1-*-wait2", "a2-*-wait2")}},
	{Step: "step 4", Claim: "with WAIT 2, master and acknowledger restarting empty together can still lose the lock (a " +
		"race of failover against resync)",
		Scenario: "wait-objections", By: LostLocks, Checks: []Check{
			occurs("master and one acknowledger restart empty after WAIT 2", "b-*-wait2")}},
	{Step: "Redlock", Claim: "a node of the majority restarting empty breaks mutual exclusion",
		Scenario: "redlock-restart", By: Violations, Checks: []Check{
			always(Breaking, "a node of the grant restarts empty: a second client gets a majority", "*/restart-empty"),
			always(Breaking, "a node of the grant loses what it had not fsynced in a host crash (appendfsync no)",
				"*/host-crash-no"),
			never(Fix, "extend by SETNX re-creates the key before a second client asks", "*/extend-setnx")}},
	// The Redlock author's two answers to node restarts, each a hypothesis of its own.
	{Step: "Redlock", Claim: "appendfsync always keeps a Redlock grant through a host crash of a node of its majority",
		Scenario: "redlock-restart", By: Violations, Checks: []Check{
			never(Fix, "the crashed node restarts on an AOF fsynced before each reply", "*/appendfsync-always")}},
	{Step: "Redlock", Claim: "a node restarted only after the TTL keeps mutual exclusion, even empty",
		Scenario: "redlock-restart", By: Violations, Checks: []Check{
			never(Fix, "the node restarts empty once A's lock has expired", "*/delayed-restart")}},
	{Step: "step 4", Claim: "a single master whose host crashes loses an acknowledged lock unless its AOF was fsynced " +
		"before the reply",
		Scenario: "host-crash", By: LostLocks, Checks: []Check{
			always(Breaking, "appendfsync no: the AOF never reached the disk", "single/appendfsync-no"),
			never(Fix, "appendfsync always", "single/appendfsync-always")}},
	{Step: "step 4", Claim: "a single master's host crash that loses an acknowledged lock lets a second client in " +
		"beside its holder", Scenario: "host-crash", By: Violations, Checks: []Check{
		always(Breaking, "appendfsync no: B is granted the lost lock while A still holds it", "single/appendfsync-no"),
		never(Fix, "appendfsync always: B is refused", "single/appendfsync-always")}},
	{Step: "rule 3", Claim: "a lone etcd member fsyncs its WAL before it answers: its host crash keeps the lock",
		Scenario: "host-crash", By: Violations, Checks: []Check{
			never(Fix, "B, with the same strategy, asks while A still holds", "etcd/host-crash")}},
	{Step: "rule 3", Claim: "a lone ZooKeeper server fsyncs its transaction log before it answers: its host crash " +
		"keeps the lock",
		Scenario: "host-crash", By: Violations, Checks: []Check{
			never(Fix, "B, with the same strategy, asks while A still holds", "zookeeper/host-crash")}},
	{Step: "rule 3", Claim: "a lone consensus member's fence does not go backwards through its host crash: the " +
		"revision or zxid it handed out is on its disk", Scenario: "host-crash", By: ReissuedTokens, Checks: []Check{
		never(Fix, "B's token is above A's, or B is refused", "etcd/host-crash", "zookeeper/host-crash")}},
	{Step: "rule 1", Claim: "PostgreSQL keeps a committed change through a host crash only while fsync is on",
		Scenario: "host-crash", By: LostUpdates, Checks: []Check{
			never(Fix, "fsync on: the commit's WAL is fsynced before it answers", "postgres/fsync-on"),
			always(Breaking, "fsync off: nothing reaches the disk", "postgres/fsync-off")}},
	{Step: "step 4", Claim: "WAITAOF 1 0 after the SET keeps a lock through the master's host crash under appendfsync " +
		"everysec (Valkey)",
		Scenario: "host-crash", By: LostLocks, Checks: []Check{
			never(Fix, "the grant waits for the master's fsync", "waitaof-local/appendfsync-everysec")}},
	{Step: "step 4", Claim: "a partition makes two masters: the cut-off old master grants the lock while the promoted " +
		"replica grants it too, with or without min-replicas-to-write",
		Scenario: "sentinel-split-brain", By: Violations, Checks: []Check{
			always(Breaking, "two holders at once, with no guard and at each max-lag", "min-replicas-*")}},
	// The same split on a Redis Cluster (cluster-split-brain, containers): the key's
	// master and client A cut off together on the minority side.
	{Step: "step 4", Claim: "a partition leaves a Redis Cluster's master and a client on the minority: the master " +
		"grants until it notices it lost the majority, the replica promoted on the majority side grants too; WAIT 1 on " +
		"that master refuses the grant",
		Scenario: "cluster-split-brain", By: Violations, Checks: []Check{
			always(Breaking, "no guard: two holders at each cluster-node-timeout", "*/none-node-timeout-*"),
			never(Fix, "WAIT 1: the cut master's replica cannot acknowledge, so A holds nothing", "*/wait1-node-timeout-*")}},
	{Step: "Redlock", Claim: "a client cut from a minority still locks; two clients reaching different majorities share " +
		"a node, and its empty restart gives both the lock unless delayed past the TTL",
		Scenario: "redlock-partition", By: Violations, Checks: []Check{
			always(Breaking, "majorities sharing a node that restarts empty: two holders", "majorities-restart-empty"),
			never(Fix, "the restart delayed past the TTL", "majorities-delayed-restart"),
			never(Breaking, "a client cut from a minority still locks alone", "minority-cut"),
			never(Control, "no cut", "no-cut")}},
	{Step: "Redlock", Claim: "redsync #186: a lock held on exactly a quorum breaks when one of its nodes restarts " +
		"empty; one held on more nodes survives it",
		Scenario: "redlock-quorum", By: Violations, Checks: []Check{
			always(Breaking, "held on exactly a quorum, one node restarts empty", "*/restart-empty-exact-quorum"),
			never(Fix, "held beyond a quorum, one node restarts empty", "*/restart-empty-beyond-quorum")}},
	{Step: "Redlock", Claim: "a clock jump on a node breaks Redlock (Kleppmann)",
		Scenario: "redlock-kleppmann", By: Violations, Checks: []Check{
			occurs("a node's clock jumps past the TTL", "jump"),
			occurs("the same jump, with the client that returns at a majority", "redlock-failfast/jump"),
			never(Fix, "a jump within the drift allowance", "jump-within-drift"),
			never(Control, "no jump", "no-jump")}},
	{Step: "Redlock", Claim: "a single master's clock jumping forward or running fast frees the lock early",
		Scenario: "single-clock-skew", By: Violations, Checks: []Check{
			occurs("the clock jumps forward", "jump-forward"),
			occurs("the clock runs 10% fast", "rate-1.1"),
			never(Breaking, "clock jumps back or runs slow", "jump-back", "rate-0.9"),
			never(Control, "true clock", "true-clock")}},
	{Step: "Redlock", Claim: "rueidislock sets its key's end from the client's clock: a server clock ahead by more " +
		"than the key's validity lets B in beside A; FallbackSETPX holds only until the watchdog's first push",
		Scenario: "rueidislock-clock-behind", By: Violations, Checks: []Check{
			always(Breaking, "SET PXAT already past on the server: B is granted beside A at once", "*/server-ahead"),
			always(Breaking, "FallbackSETPX without client-side caching: the first push deletes the key, B gets in "+
				"before A is told", "rueidislock-nocache/server-ahead-setpx"),
			never(Fix, "FallbackSETPX with client-side caching: the deletion's invalidation tells A before B tries",
				"rueidislock/server-ahead-setpx"),
			never(Control, "true clocks", "*/true-clock")}},
	{Step: "step 4", Claim: "rueidislock on a Redis Cluster: a majority of its keys is not a majority of masters; " +
		"a name whose majority shares the master that fails over loses the lock, a name spread over three masters " +
		"keeps it, unless its grant sat on exactly two keys (redsync #186's case)",
		Scenario: "rueidislock-cluster-spread", By: LostLocks, Checks: []Check{
			always(Breaking, "two of the name's keys on the master that dies, its replicas cut off: B is granted",
				"*/majority-on-one-master/cut"),
			always(Breaking, "the same with the keys replicated: the failover outlasts their 5 s validity",
				"*/majority-on-one-master/replicated"),
			never(Fix, "the three keys on three masters: A keeps two, B is refused", "*/spread/*"),
			always(Breaking, "the three keys on three masters, the third held by another client at A's grant and "+
				"freed after: the library does not try it again, and one master's failover lets B in",
				"*/exact-majority/cut")}},
	{Step: "fencing 1", Claim: "an INCR fence on the same Redis goes backwards after a failover; etcd's revision does not",
		Scenario: "fence-regression", By: ReissuedTokens, Checks: []Check{
			occurs("followers lag, the master dies: the promoted one reissues tokens", "sentinel/lagging-followers"),
			never(Fix, "etcd's revision", "etcd-3/*"),
			never(Control, "replicas caught up before the failover", "sentinel/replicated")}},
	// The same on a Redis Cluster (--param strategies=cluster): the counter lives in the
	// lock key's slot, on that slot's master.
	{Step: "fencing 1", Claim: "on a Redis Cluster the INCR fence kept in the lock key's slot goes backwards too when " +
		"the key's master dies before its replica applied the last grants",
		Scenario: "fence-regression", By: ReissuedTokens, Checks: []Check{
			occurs("the key master's replica lags, the master dies: the promoted replica reissues tokens",
				"cluster/lagging-followers"),
			never(Control, "the replica caught up before the failover", "cluster/replicated")}},
	{Step: "fencing 2", Claim: "Redlock has no global counter: the largest per-node INCR of the majority regresses when " +
		"a node lags or restarts empty",
		Scenario: "redlock-fence", By: ReissuedTokens, Checks: []Check{
			always(Breaking, "a counter lags or restarts empty", "max-fence/counter-lagged", "max-fence/restart-empty"),
			never(Control, "steady nodes", "max-fence/steady")}},
	{Step: "fencing 2", Claim: "a random token (what Redlock offers) cannot order writes: a resource comparing tokens " +
		"for equality accepts the stale one",
		Scenario: "redlock-fence", By: StaleAccepted, Checks: []Check{
			always(Breaking, "the stale holder's write with its random token", "token/random-token")}},
	{Step: "fencing 3", Claim: "the resource must judge the token: an unfenced write lets the stale holder's change " +
		"through",
		Scenario: "lost-updates", By: StaleApplied, Checks: []Check{
			always(Breaking, "the holder paused past its lease, or the lock freed by a clock jump: its change lands",
				"pause/*/unfenced",
				"clock-jump/*/unfenced"),
			never(Fix, "the fence checked in the same statement refuses it", "pause/*/fenced", "clock-jump/*/fenced",
				"*/pg-sequence/fenced")}},
	{Step: "fencing 4", Claim: "a side effect beyond the guarded resource escapes the fence",
		Scenario: "lost-updates", By: EscapedSideEffects, Checks: []Check{
			always(Breaking, "the side effect is sent before the refused write", "*/fenced+outbox")}},
	{Step: "fencing 5", Claim: "checking the fence in the client, then writing, is the race one layer down",
		Scenario: "lost-updates", By: LostUpdates, Checks: []Check{
			always(Breaking, "A's check passes, B writes, A overwrites: an update is lost", "*/check-then-write"),
			never(Fix, "the fence checked in the same statement", "pause/*/fenced", "clock-jump/*/fenced",
				"*/pg-sequence/fenced")}},
	{Step: "rule 1", Claim: "a structure safe without a lock (version check, unique key, atomic statement) loses no " +
		"update when its client pauses",
		Scenario: "lost-updates", By: LostUpdates, Checks: []Check{
			never(Fix, "a pause costs nothing without a lock: the store judges each update", "pause/cas-version",
				"pause/unique-key", "pause/atomic")}},
	{Step: "rule 1", Claim: "only a unique key refuses a redelivery",
		Scenario: "lost-updates", By: Duplicates, Checks: []Check{
			always(Breaking, "a scripted redelivery is applied twice", "redelivery/atomic", "redelivery/cas-version"),
			never(Fix, "a unique key refuses it", "redelivery/unique-key")}},
	{Step: "limit 1", Claim: "the loss window is the replication lag: measured idle to saturation (percentiles in the " +
		"replication-lag figures)",
		Scenario: "replication-lag", By: ProbesUnseen, Checks: []Check{
			never(Control, "every probe reached the replicas within the poll timeout (the lag is measured, not cut off)",
				"rate-*", "saturate")}},
	{Step: "rule 3", Claim: "a consensus leader cut off from its followers is no second master: it grants nothing, and " +
		"the majority grants the lock only after the holder's lease ran out",
		Scenario: "consensus-partition", By: Violations, Checks: []Check{
			never(Fix, "two holders at once", "*/isolated-leader")}},
	{Step: "rule 3", Claim: "for correctness use consensus: etcd and ZooKeeper keep the lock through their leader's " +
		"death (a lone member losing its disk does not)",
		Scenario: "etcd-leader-kill", By: Violations, Checks: []Check{
			never(Fix, "the leader killed while the lock is held", "*-leader-kill"),
			always(Breaking, "a lone member restarted without its disk", "*-lone-member-disk-loss")}},
	{Step: "rule 3", Claim: "a consensus store's fence keeps growing through its leader's death; a lone member that " +
		"lost its disk issues a fence again",
		Scenario: "etcd-leader-kill", By: ReissuedTokens, Checks: []Check{
			never(Fix, "the leader killed while the lock is held: B's fence exceeds A's", "*-leader-kill"),
			always(Breaking, "a lone member restarted without its disk grants B a fence A had", "*-lone-member-disk-loss")}},
	{Step: "rule 3", Claim: "through a consensus leader's death, the resource that checks the fence takes no stale write",
		Scenario: "etcd-leader-kill", By: StaleAccepted, Checks: []Check{
			never(Fix, "the leader killed while the lock is held: no write of A's lands after B's", "*-leader-kill")}},
}
