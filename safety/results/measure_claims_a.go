package results

// The measures of the check-then-delete gap, the check-then-write race, Redlock's
// per-node fence and its quorum grants, listed in Measures so that the tables and
// tallies show them. Each is read from the lock store
// or the resource itself at the moment it happened, never inferred from timings.
const (
	// ForeignDeletes: a release's DEL removed a key that held another owner's token
	// (the DEL is a GETDEL, so its answer is what that very step deleted).
	ForeignDeletes Measure = "foreign_locks_deleted"
	// CutShort: a holder found its key gone or another's before its lease could have
	// expired on the server: someone else removed it.
	CutShort Measure = "locks_cut_short"
	// ExpiredAfterCheck: the holder's check said its lock was valid, and a read of the
	// key between that answer and its write found it gone or another's.
	ExpiredAfterCheck Measure = "expired_after_check"
	// QuorumOnly: a grant whose key was on exactly a quorum of the nodes, read on every
	// node right after the grant.
	QuorumOnly Measure = "grants_on_exactly_a_quorum"
	// PartialLocks: keys left on some nodes, with no holder, after every client of the
	// round had released or given up.
	PartialLocks Measure = "partial_locks_left"
)
