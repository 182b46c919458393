package check

import (
	"time"

	"github.com/lockbench/lockbench/safety/history"
)

// WriteReport is the verdict of Writes: the harms a fenced store does to honest holders.
type WriteReport struct {
	// HonestRefused counts refused writes whose writer held the newest grant of its key
	// and still believed it valid: the fence, not the writer, was wrong (a counter that
	// went backwards makes a store refuse the lock's real holder).
	HonestRefused int `json:"honest_refused"`
	// Diverged counts leases whose writes one resource accepted and another refused:
	// two stores that saw different histories now disagree about the same holder.
	Diverged int `json:"diverged"`
}

// Writes judges every write against the grants and against the other resources.
func Writes(h history.History) WriteReport {
	var r WriteReport
	all := leases(h)
	type answers struct{ accepted, refused bool }
	byToken := map[string]*answers{}
	var order []string
	for _, e := range h {
		if e.Kind != history.Write {
			continue
		}
		if !e.Accepted && honestAt(all, e.Client, e.Key, e.Token, e.Time) {
			r.HonestRefused++
		}
		if e.Token == "" {
			continue
		}
		a := byToken[e.Token]
		if a == nil {
			a = &answers{}
			byToken[e.Token] = a
			order = append(order, e.Token)
		}
		a.accepted = a.accepted || e.Accepted
		a.refused = a.refused || !e.Accepted
	}
	for _, tok := range order {
		if a := byToken[tok]; a.accepted && a.refused {
			r.Diverged++
		}
	}
	return r
}

// honestAt says whether client's lease token on key was, at t, believed valid and the
// newest grant of key.
func honestAt(all []*lease, client, key, token string, t time.Time) bool {
	var mine *lease
	for _, l := range all {
		if l.client == client && l.key == key && (token == "" || l.token == token) && l.believedAt(t) {
			mine = l
		}
	}
	if mine == nil {
		return false
	}
	for _, l := range all {
		if l != mine && l.key == key && l.granted.After(mine.granted) && !l.granted.After(t) {
			return false
		}
	}
	return true
}
