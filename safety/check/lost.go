package check

import (
	"time"

	"github.com/lockbench/lockbench/safety/history"
)

// lease is one grant as its holder believes it, rebuilt from a history.
type lease struct {
	client, key, token string
	granted            time.Time
	validUntil         time.Time
	ended              time.Time // release invoked, extend refused or crash; zero while believed
}

// believedAt says whether the holder still believed the lease valid at t.
func (l *lease) believedAt(t time.Time) bool {
	if t.Before(l.granted) || !t.Before(l.validUntil) {
		return false
	}
	return l.ended.IsZero() || t.Before(l.ended)
}

// leases replays grants, extends, releases and crashes; it returns every lease and a
// function giving the leases alive (not given up, whatever their validity) at time t.
func leases(h history.History) []*lease {
	var all []*lease
	byToken := map[string]*lease{}
	for _, e := range h {
		switch e.Kind {
		case history.AcquireGranted:
			l := &lease{client: e.Client, key: e.Key, token: e.Token, granted: e.Time, validUntil: e.ValidUntil}
			all = append(all, l)
			byToken[e.Token] = l
		case history.Extended:
			if l := byToken[e.Token]; l != nil && l.ended.IsZero() {
				if e.OK {
					l.validUntil = e.ValidUntil
				} else {
					l.ended = e.Time
				}
			}
		case history.ReleaseInvoked:
			if l := byToken[e.Token]; l != nil && l.ended.IsZero() {
				l.ended = e.Time
			}
		case history.Crashed:
			for _, l := range all {
				if l.client == e.Client && l.ended.IsZero() {
					l.ended = e.Time
				}
			}
		}
	}
	return all
}

// LostReport is the verdict of LostLocks.
type LostReport struct {
	// Lost counts leases that an observer found missing (or owned by another token) on
	// the server it read while their holder still believed them valid.
	Lost   int      `json:"lost"`
	Tokens []string `json:"tokens,omitempty"`
}

// LostLocks compares server observations with what holders believed. Scenarios
// observe the current master (after a failover, the promoted one) or a quorum's nodes.
func LostLocks(h history.History) LostReport {
	var r LostReport
	all := leases(h)
	lost := map[string]bool{}
	for _, e := range h {
		if e.Kind != history.Observed {
			continue
		}
		for _, l := range all {
			if l.key != e.Key || lost[l.token] || !l.believedAt(e.Time) {
				continue
			}
			if !e.Present || e.Holder != l.token {
				lost[l.token] = true
				r.Lost++
				r.Tokens = append(r.Tokens, l.token)
			}
		}
	}
	return r
}

// OrphanReport is the verdict of Orphans.
type OrphanReport struct {
	// Orphans counts keys seen with no expiry whose token no living holder owns:
	// nobody will ever delete them, so the lock is taken for good.
	Orphans int `json:"orphans"`
}

// Orphans finds locks that will never be freed.
func Orphans(h history.History) OrphanReport {
	var r OrphanReport
	all := leases(h)
	counted := map[string]bool{}
	for _, e := range h {
		if e.Kind != history.Observed || !e.Present || e.TTL != history.NoExpiry || counted[e.Holder] {
			continue
		}
		owned := false
		for _, l := range all {
			if l.token == e.Holder && !e.Time.Before(l.granted) && (l.ended.IsZero() || e.Time.Before(l.ended)) {
				owned = true
			}
		}
		if !owned {
			counted[e.Holder] = true
			r.Orphans++
		}
	}
	return r
}
