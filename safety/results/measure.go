package results

// Measure names a count the checkers (or a resource's audit) give for one trial; a
// Claim is about one.
type Measure string

const (
	Violations       Measure = "violations" // pairs of holders inside at once
	LostLocks        Measure = "lost_locks"
	Orphans          Measure = "orphaned_locks"
	ReissuedTokens   Measure = "reissued_tokens"
	FenceViolations  Measure = "fence_violations" // accepted writes below an accepted token
	StaleAccepted    Measure = "stale_writes_accepted"
	StaleRejected    Measure = "stale_writes_rejected"
	HonestRejected   Measure = "honest_writes_rejected"
	Diverged         Measure = "diverged_resources"
	NotLinearizable  Measure = "not_linearizable"
	LinearUnknown    Measure = "linearizability_unknown" // porcupine ran out of time
	SecondGranted    Measure = "second_client_granted"
	SplitBrainWindow Measure = "split_brain_windows" // nodes that took writes after their demotion
	// The counts of a resource audited after the trial (lost-updates: the account rows
	// read back and judged against every change intended on them).
	LostUpdates        Measure = "lost_updates"          // applied changes the data lost, and honest changes refused
	StaleApplied       Measure = "stale_changes_applied" // changes applied for a holder that had lost the lock
	StaleRefused       Measure = "stale_changes_refused" // the same changes, refused by the guard
	EscapedSideEffects Measure = "side_effects_escaped"  // side effects sent for changes never applied
	Duplicates         Measure = "changes_applied_twice" // one change (one idempotency key) applied more than once
)

// Measures lists every measure, in table order: this list alone decides the order, so a
// new measure is added here, where its place in the tables is chosen.
var Measures = []Measure{
	Violations, LostLocks, Orphans, ReissuedTokens, FenceViolations, StaleAccepted, StaleRejected, HonestRejected,
	Diverged, NotLinearizable, LinearUnknown, SecondGranted, SplitBrainWindow,
	LostUpdates, StaleApplied, StaleRefused, EscapedSideEffects, Duplicates,
	ForeignDeletes, CutShort, ExpiredAfterCheck, QuorumOnly, PartialLocks,
	ExpiredMidWork, BlockedShort, WatchdogLate, ExpiredOnTime, ProbesUnseen,
	WaitShort, GrantsRefused,
}

// AuditMeasures are the measures of an audited resource, which the table lists apart
// (with honest_writes_rejected beside them) for the reports that have them.
var AuditMeasures = []Measure{LostUpdates, StaleApplied, StaleRefused, EscapedSideEffects, Duplicates}

// Want is what a claim expects of a measure over the judged trials.
type Want string

const (
	None  Want = "none"  // 0 in every judged trial: the fix holds
	Some  Want = "some"  // > 0 in at least one judged trial: the lock breaks
	Every Want = "every" // > 0 in every judged trial: it always breaks
)

// Claim is one prediction about a variant, from the write-up or the model. Tests
// assert every claim; a variant without claims is a point of a sweep.
type Claim struct {
	Measure Measure `json:"measure"`
	Want    Want    `json:"want"`
}

func (c Claim) String() string { return string(c.Measure) + " " + string(c.Want) }

// Holds (the measure stays 0), Breaks (it is seen) and Always (in every trial).
func Holds(m Measure) Claim  { return Claim{m, None} }
func Breaks(m Measure) Claim { return Claim{m, Some} }
func Always(m Measure) Claim { return Claim{m, Every} }

// Check says whether the claim holds for a tally, and if not, why.
func (c Claim) Check(t Tally) (bool, string) {
	if t.Judged == 0 {
		return false, "no judged trial"
	}
	broke, sum := t.Broke[c.Measure], t.Sums[c.Measure]
	switch c.Want {
	case None:
		return sum == 0, ""
	case Some:
		return broke > 0, ""
	case Every:
		return broke == t.Judged, ""
	}
	return false, "unknown want " + string(c.Want)
}
