// Package heldlease keeps the client's side of the leases a locker holds: a table of
// granted leases by token, each given back by a timer when its client-side deadline
// passes without a renewal. Lockers whose server keeps a live client's lock past its
// TTL (pglock's sessions, zklock's heartbeated ones) keep their leases this way.
package heldlease

import (
	"sync"
	"time"
)

// Lease is one held lease: what the locker keeps about it, and its deadline.
type Lease[T any] struct {
	Token, Key string
	Value      T
	validUntil time.Time // guarded by the table's mu
	lapseTimer *time.Timer
}

// Table holds the leases of one locker. Safe for concurrent use.
type Table[T any] struct {
	mu     sync.Mutex
	held   map[string]*Lease[T] // by token
	closed bool
}

// Hold registers a granted lease; lapse runs when validUntil passes unless the lease
// was taken or renewed first. False if the table is closed: the caller gives it back.
func (t *Table[T]) Hold(token, key string, validUntil time.Time, value T, lapse func(*Lease[T])) (*Lease[T], bool) {
	h := &Lease[T]{Token: token, Key: key, Value: value, validUntil: validUntil}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, false
	}
	if t.held == nil {
		t.held = map[string]*Lease[T]{}
	}
	t.held[token] = h
	// Armed under mu, so that lapse finds the lease registered.
	h.lapseTimer = time.AfterFunc(time.Until(validUntil), func() { lapse(h) })
	return h, true
}

// Get returns the lease token holds on key, or nil.
func (t *Table[T]) Get(token, key string) *Lease[T] {
	t.mu.Lock()
	defer t.mu.Unlock()
	if h := t.held[token]; h != nil && h.Key == key {
		return h
	}
	return nil
}

// Take removes and returns the lease token holds on key, or nil.
func (t *Table[T]) Take(token, key string) *Lease[T] {
	t.mu.Lock()
	defer t.mu.Unlock()
	h := t.held[token]
	if h == nil || h.Key != key {
		return nil
	}
	t.removeLocked(h)
	return h
}

// Renew moves h's deadline to validUntil; false if h lapsed or was taken meanwhile.
func (t *Table[T]) Renew(h *Lease[T], validUntil time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.held[h.Token] != h {
		return false
	}
	h.validUntil = validUntil
	h.lapseTimer.Reset(time.Until(validUntil))
	return true
}

// Expire removes h if it is still held and past its deadline, and says whether it did:
// the timer may fire just before a renewal moved the deadline. gone, if not nil, runs
// under the table's lock before anyone can see h missing, to record why it left.
func (t *Table[T]) Expire(h *Lease[T], gone func()) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.held[h.Token] != h || time.Now().Before(h.validUntil) {
		return false // taken, or renewed after the timer fired
	}
	t.removeLocked(h)
	if gone != nil {
		gone()
	}
	return true
}

// Close refuses every later Hold and removes and returns the leases still held.
func (t *Table[T]) Close() []*Lease[T] {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	var out []*Lease[T]
	for _, h := range t.held {
		t.removeLocked(h)
		out = append(out, h)
	}
	return out
}

func (t *Table[T]) removeLocked(h *Lease[T]) {
	delete(t.held, h.Token)
	h.lapseTimer.Stop()
}
