package lab

import (
	"sync"
	"time"

	"github.com/lockbench/lockbench/safety/history"
)

// Resource is the thing a lock protects, kept in process so that it can judge
// honestly: it sees every holder that enters and every write that reaches it.
//
// An unfenced resource accepts every write. A fenced one accepts a write only if its
// fencing token is greater than the highest it has accepted, atomically, as storage
// that checks tokens would.
type Resource struct {
	name   string
	fenced bool
	rec    *history.Recorder

	mu            sync.Mutex
	inside        map[string]time.Time // client -> when it entered
	overlapSince  time.Time            // when a second holder came in; zero when <= 1 inside
	stats         ResourceStats
	highestFence  int64
	anyFenceSeen  bool
	acceptedWrite []int64
}

// ResourceStats is what a resource counted by itself, live.
type ResourceStats struct {
	Name          string        `json:"name"`
	Fenced        bool          `json:"fenced"`
	MaxHolders    int           `json:"max_holders"`    // most clients inside at once
	OverlapTime   time.Duration `json:"overlap_ns"`     // total time with 2+ clients inside
	Writes        int           `json:"writes"`         // writes that reached it
	Accepted      int           `json:"accepted"`       // writes it applied
	StaleAccepted int           `json:"stale_accepted"` // applied although token <= highest seen
	StaleRejected int           `json:"stale_rejected"` // refused because token <= highest seen
	HighestFence  int64         `json:"highest_fence"`  // highest token accepted
}

// NewResource returns an empty resource that records its answers in rec.
func NewResource(name string, fenced bool, rec *history.Recorder) *Resource {
	return &Resource{name: name, fenced: fenced, rec: rec, inside: map[string]time.Time{},
		stats: ResourceStats{Name: name, Fenced: fenced}}
}

// Name is the resource's name in events.
func (r *Resource) Name() string { return r.name }

// Enter records that client starts working under a lease on key.
func (r *Resource) Enter(client, key, token string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.rec.Record(history.Event{Client: client, Kind: history.Entered, Key: key, Token: token, Resource: r.name})
	r.inside[client] = e.Time
	if n := len(r.inside); n > r.stats.MaxHolders {
		r.stats.MaxHolders = n
	}
	if len(r.inside) == 2 {
		r.overlapSince = e.Time
	}
}

// Leave records that client stopped working under its lease.
func (r *Resource) Leave(client, key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.inside[client]; !ok {
		return
	}
	e := r.rec.Record(history.Event{Client: client, Kind: history.Left, Key: key, Resource: r.name})
	if len(r.inside) == 2 {
		r.stats.OverlapTime += e.Time.Sub(r.overlapSince)
	}
	delete(r.inside, client)
}

// Write applies (or, fenced, may refuse) a write from client carrying fence, and
// returns whether it was applied. A write without a fence (hasFence false) is always
// applied: there is nothing to check it against.
func (r *Resource) Write(client, key, token string, fence int64, hasFence bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats.Writes++
	stale := hasFence && r.anyFenceSeen && fence <= r.highestFence
	accepted := !(r.fenced && stale)
	if accepted {
		r.stats.Accepted++
		if hasFence && (!r.anyFenceSeen || fence > r.highestFence) {
			r.highestFence, r.anyFenceSeen = fence, true
			r.stats.HighestFence = fence
		}
		r.acceptedWrite = append(r.acceptedWrite, fence)
	}
	switch {
	case stale && accepted:
		r.stats.StaleAccepted++
	case stale:
		r.stats.StaleRejected++
	}
	r.rec.Record(history.Event{Client: client, Kind: history.Write, Key: key, Token: token, Resource: r.name,
		Fence: fence, HasFence: hasFence, Accepted: accepted})
	return accepted
}

// Stats returns the counts so far; an overlap still in progress counts up to now.
func (r *Resource) Stats() ResourceStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.stats
	if len(r.inside) >= 2 {
		s.OverlapTime += time.Since(r.overlapSince)
	}
	return s
}

// AcceptedFences lists the fences of the writes applied, in order: two resources that
// saw the same holders should end with the same list.
func (r *Resource) AcceptedFences() []int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]int64(nil), r.acceptedWrite...)
}
