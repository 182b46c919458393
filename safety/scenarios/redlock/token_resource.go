package redlock

import (
	"sync"

	"github.com/lockbench/lockbench/safety/history"
)

// equalityResource is a store that gets only Redlock's random token: it can tell two
// tokens apart, never which is newer. It refuses a token it has seen replaced by
// another, and must take any token it has not seen (it may be the new holder's). Each
// write is recorded with the grant order the lab knows and the store does not, so the
// fencing checker can say which accepted writes were stale.
type equalityResource struct {
	name string
	rec  *history.Recorder

	mu       sync.Mutex
	current  string
	replaced map[string]bool
}

func newEqualityResource(name string, rec *history.Recorder) *equalityResource {
	return &equalityResource{name: name, rec: rec, replaced: map[string]bool{}}
}

// Write applies client's write carrying token; order is the grant's rank, for the
// checker only.
func (r *equalityResource) Write(client, key, token string, order int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	accepted := !r.replaced[token]
	if accepted && token != r.current {
		if r.current != "" {
			r.replaced[r.current] = true
		}
		r.current = token
	}
	r.rec.Record(history.Event{Client: client, Kind: history.Write, Key: key, Token: token, Resource: r.name,
		Fence: order, HasFence: true, Accepted: accepted})
	return accepted
}
