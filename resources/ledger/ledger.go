// Package ledger is what every account resource keeps the same way: the outcome of one
// intended change, and the client-side log of changes in the order they were begun,
// which the audits hold against the rows.
package ledger

import "sync"

// Outcome is what the store said about one change.
type Outcome int

const (
	// Failed: an error; if the write had been sent, whether it landed is unknown.
	Failed Outcome = iota
	// Applied: the store reported the write done.
	Applied
	// Refused: the guard or method refused the change (a stale token, a lost check).
	Refused
)

func (o Outcome) String() string {
	switch o {
	case Applied:
		return "applied"
	case Refused:
		return "refused"
	default:
		return "failed"
	}
}

// Tally counts intended changes by outcome: what every audit says of one account and
// of them all, whichever store holds the accounts.
type Tally struct {
	Intended int `json:"intended"`
	Applied  int `json:"applied"` // as the store reported
	Refused  int `json:"refused"`
	// Failed counts changes that ended in an error; one whose write was sent may have
	// landed, which would make an audit's LostUpdates low (negative alone).
	Failed int `json:"failed"`
}

// Count adds one intended change that ended in o.
func (t *Tally) Count(o Outcome) {
	t.Intended++
	switch o {
	case Applied:
		t.Applied++
	case Refused:
		t.Refused++
	default:
		t.Failed++
	}
}

// Log holds one entry per intended change: begun before the change is sent (so a
// change whose reply is lost is still in it), completed once its outcome is known.
// Safe for concurrent use.
type Log[E any] struct {
	mu      sync.Mutex
	entries []E // entry id is at index id-1
}

// Begin logs e under the next id (1, 2, ...), which it returns; stamp writes the id
// into e first.
func (l *Log[E]) Begin(e E, stamp func(e *E, id int64)) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	id := int64(len(l.entries)) + 1
	stamp(&e, id)
	l.entries = append(l.entries, e)
	return id
}

// Complete fills in the entry begun as id; an unknown id changes nothing.
func (l *Log[E]) Complete(id int64, fill func(e *E)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i := id - 1; i >= 0 && i < int64(len(l.entries)) {
		fill(&l.entries[i])
	}
}

// Entries returns a copy of the log, in the order changes were begun.
func (l *Log[E]) Entries() []E {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]E(nil), l.entries...)
}
