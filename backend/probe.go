package backend

// Fault is a fault the decision record weighs against a strategy (adr's fault kinds).
type Fault string

const (
	FailoverFault Fault = "failover" // a server dies and the store promotes another
	// PlannedFailoverFault: the store hands the primary's role over on request (host
	// patching, SENTINEL FAILOVER); the old primary lives on.
	PlannedFailoverFault Fault = "planned_failover"
	// MasterStallFault: the primary's host freezes (a VM paused, a swap storm) past the
	// failover's timeout, a replica is promoted, and the old primary resumes taking
	// writes beside the new one until it is demoted: split brain.
	MasterStallFault  Fault = "master_stall"
	ClientPauseFault  Fault = "client_pause"       // the holder stops past its lease
	RestartEmptyFault Fault = "node_restart_empty" // a server comes back without its data
	ClockJumpFault    Fault = "clock_jump"         // a server's clock leaps forward
	// HostCrashFault: a server's host loses power; the server restarts on what its
	// disk had fsynced.
	HostCrashFault Fault = "host_crash"
	// RedeliveryFault: a change is sent again after it was applied (its reply was
	// lost, a queue delivers at least once); its harm is the change applied twice.
	RedeliveryFault Fault = "redelivery"
)

// GrantsForAWindow says the fault leaves a server granting for a while after it struck
// (a planned failover, a stalled master that resumes: the old primary takes writes
// until it is demoted), so its harm counts the locks granted in that window as well as
// those held when it struck.
func (f Fault) GrantsForAWindow() bool { return f == PlannedFailoverFault || f == MasterStallFault }

// Mechanism is how a fault breaks a strategy's lock, where a model of the decision
// record carries the lab's probability to a workload's sizes; the record names the
// model, the store only the mechanism.
type Mechanism string

const (
	// AsyncPromotion: a crash promotes a replica the key had not reached yet, so the
	// locks granted within its lag before the crash are lost.
	AsyncPromotion Mechanism = "async-promotion"
	// LoneMemberLoss: the only member holds every lock and the fence's counter.
	LoneMemberLoss Mechanism = "lone-member-loss"
	// MasterClockJump: the one master's clock jump expires the key early.
	MasterClockJump Mechanism = "master-clock-jump"
	// QuorumNodeClockJump: one node's jump frees the key there; two holders need the
	// key on exactly a quorum.
	QuorumNodeClockJump Mechanism = "quorum-node-clock-jump"
	// QuorumNodeLoss: one node restarting empty drops the key there; two holders need
	// the key on exactly a quorum that includes that node.
	QuorumNodeLoss Mechanism = "quorum-node-loss"
	// UnsyncedLoss: the one node's host crash loses every lock its disk had not synced;
	// with no fsync of its own, every lock it holds.
	UnsyncedLoss Mechanism = "unsynced-loss"
)

// Probe is where the safety suite measures a strategy under one fault, as the
// decision record reads it. Variants are named by patterns as in the claims of
// safety/results ("*" matches any run of characters).
type Probe struct {
	Fault    Fault
	Scenario string
	// Lock are the variants whose violations are the lock's own failures.
	Lock []string
	// Fenced is what reached the data behind the strategy's fence; nil: no scenario
	// measures it, so a fenced option's data side stays unmeasured.
	Fenced *DataProbe
	// Mechanism is how the fault breaks the lock; "" when no model sizes it.
	Mechanism Mechanism
}

// DataProbe names the variants that measure what reached the data, and how.
type DataProbe struct {
	Scenario string // "" for the probe's own
	Variants []string
	Measure  string // a measure of safety/results (its Measure's value)
}

// ProbeOf is the strategy's probe of fault f; false when it declared none.
func (s Strategy) ProbeOf(f Fault) (Probe, bool) {
	for _, p := range s.Probes {
		if p.Fault == f {
			return p, true
		}
	}
	return Probe{}, false
}

// LeaderKill is a consensus group's failover probe: etcd-leader-kill kills the
// leader of the strategy's group (variant NAME-leader-kill), and its fenced variant
// counts the stale writes the resource accepted.
func LeaderKill(name string) Probe {
	v := []string{name + "-leader-kill"}
	return Probe{Fault: FailoverFault, Scenario: "etcd-leader-kill", Lock: v,
		Fenced: &DataProbe{Variants: v, Measure: "stale_writes_accepted"}}
}

// LoneMemberHostCrash is a one-member store's host-crash probe: host-crash crashes the
// only member's host right after a grant (variant NAME/host-crash), and it restarts on
// what its fsynced log kept; its fence is read there too, as tokens handed out again.
func LoneMemberHostCrash(name string) Probe {
	v := []string{name + "/host-crash"}
	return Probe{Fault: HostCrashFault, Scenario: "host-crash", Lock: v,
		Fenced: &DataProbe{Variants: v, Measure: "reissued_tokens"}}
}

// LoneMemberDiskLoss is a one-member store's restart-empty probe: etcd-leader-kill
// wipes the only member (variant NAME-lone-member-disk-loss), which hands its fence
// out again.
func LoneMemberDiskLoss(name string) Probe {
	v := []string{name + "-lone-member-disk-loss"}
	return Probe{Fault: RestartEmptyFault, Scenario: "etcd-leader-kill", Lock: v, Mechanism: LoneMemberLoss,
		Fenced: &DataProbe{Variants: v, Measure: "reissued_tokens"}}
}
