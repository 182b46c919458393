package zklock

import "errors"

// errLapsed says the locker gave the lease back itself: its ValidUntil passed without
// an Extend (the holder was slow, or its process was stopped).
var errLapsed = errors.New("its ValidUntil passed without an Extend: the lock was given back")

// goneCapacity bounds the reasons kept: a holder asks soon after, or never.
const goneCapacity = 1024

// goneLeases remembers why the most recent leases left the locker without their
// holder's Release, so that the holder's late Release or Extend can say so.
type goneLeases struct {
	reasons map[string]error // by token
	order   []string         // oldest first
}

func newGoneLeases() goneLeases { return goneLeases{reasons: map[string]error{}} }

func (g *goneLeases) remember(token string, why error) {
	if _, known := g.reasons[token]; known {
		g.reasons[token] = why
		return
	}
	if len(g.order) == goneCapacity {
		delete(g.reasons, g.order[0])
		g.order = g.order[1:]
	}
	g.reasons[token] = why
	g.order = append(g.order, token)
}

func (g *goneLeases) reason(token string) error { return g.reasons[token] }
