// Package history is the safety lab's record of a trial: plain-data events, in time
// order, that checkers judge without ever touching a server.
package history

import (
	"sort"
	"sync"
	"time"
)

// Kind names what an event records.
type Kind string

const (
	AcquireInvoked Kind = "acquire-invoked" // a client starts one attempt
	AcquireGranted Kind = "acquire-granted" // the attempt returned a lease (Token, Fence, ValidUntil)
	AcquireRefused Kind = "acquire-refused" // the attempt returned an error (Detail)
	Entered        Kind = "cs-entered"      // the client starts working under its lease
	Left           Kind = "cs-left"         // the client stops working under its lease
	Write          Kind = "write"           // a write to Resource with Fence; Accepted is the answer
	ReleaseInvoked Kind = "release-invoked" // the client starts giving its lease back
	Released       Kind = "released"        // the release returned; OK says whether the key was ours
	Extended       Kind = "extended"        // an extend returned; OK, and the new ValidUntil when OK
	Crashed        Kind = "client-crashed"  // the client died: it believes nothing any more
	Observed       Kind = "observed"        // an observer read Key on Node (Present, Holder, TTL)
	FaultInjected  Kind = "fault"           // the nemesis acted (Detail says how)
	// ProbeWritten: an observer wrote to Node outside any lock, to see whether the node
	// still takes writes (a demoted master that has not noticed yet); Accepted answers.
	ProbeWritten Kind = "probe-written"
)

// NoExpiry is the TTL an observation records for a key without an expiry (PTTL -1).
const NoExpiry = time.Duration(-1)

// Event is one step of a history. Fields that do not apply to a Kind stay zero.
type Event struct {
	Time   time.Time `json:"time"`
	Client string    `json:"client"` // "A", "B", ... or "nemesis", "observer"
	Kind   Kind      `json:"kind"`
	Key    string    `json:"key,omitempty"`

	Token      string    `json:"token,omitempty"` // the lease's owner token
	Fence      int64     `json:"fence,omitempty"`
	HasFence   bool      `json:"has_fence,omitempty"`
	ValidUntil time.Time `json:"valid_until,omitzero"`

	Resource string `json:"resource,omitempty"`
	Accepted bool   `json:"accepted,omitempty"` // Write, ProbeWritten: the answer
	OK       bool   `json:"ok,omitempty"`       // Released, Extended: whether the key was still ours

	Node    string        `json:"node,omitempty"`    // Observed: the server read (its address)
	Present bool          `json:"present,omitempty"` // Observed: the key exists there
	Holder  string        `json:"holder,omitempty"`  // Observed: the token stored in the key
	TTL     time.Duration `json:"ttl_ns,omitempty"`  // Observed: PTTL, or NoExpiry

	Detail string `json:"detail,omitempty"`
}

// History is a recorded run, in the order events were recorded.
type History []Event

// Recorder collects events from many goroutines. Times are taken under its lock, so
// the recording order is also the time order.
type Recorder struct {
	mu     sync.Mutex
	events History
	now    func() time.Time
}

// NewRecorder returns an empty recorder that stamps events with time.Now.
func NewRecorder() *Recorder { return &Recorder{now: time.Now} }

// Record stamps e with the current time (unless already set) and appends it.
func (r *Recorder) Record(e Event) Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e.Time.IsZero() {
		e.Time = r.now()
	}
	r.events = append(r.events, e)
	return e
}

// History returns a copy of what was recorded so far, sorted by time.
func (r *Recorder) History() History {
	r.mu.Lock()
	h := append(History(nil), r.events...)
	r.mu.Unlock()
	sort.SliceStable(h, func(i, j int) bool { return h[i].Time.Before(h[j].Time) })
	return h
}

// End is the time of the last event: open intervals are closed there.
func (h History) End() time.Time {
	var t time.Time
	for _, e := range h {
		if e.Time.After(t) {
			t = e.Time
		}
	}
	return t
}
