package bench

import (
	"sync"
	"time"
)

// turns follows each key's waiters and releases across clients, to time hand-offs:
// from a release made while another client waited for the key to the key's next grant.
// That gap is the lock idle for nothing: the library's notice (a poll, a backoff, a
// watch, a queue) and the winner's round trip. Safe for concurrent use.
type turns struct {
	mu   sync.Mutex
	keys map[string]*turn
}

// turn is one key's state: clients waiting for it, and the start of a release made
// while some waited (zero when none is pending).
type turn struct {
	waiting  int
	released time.Time
}

func newTurns() *turns { return &turns{keys: map[string]*turn{}} }

// turns is the load's hand-off tracker, or nil where no two of its clients can ask for
// one key (fixed keys, as many as the clients): nothing to time, and no shared mutex in
// the measured loop. A nil tracker's methods do nothing.
func (l Load) turns() *turns {
	drawn := l.Spread != nil && l.Spread.Keys != nil
	if !drawn && l.Clients <= l.Keys {
		return nil
	}
	return newTurns()
}

// wait notes that a client starts waiting for key; done() undoes it, at a grant or a
// wait given up.
func (t *turns) wait(key string) (done func()) {
	if t == nil {
		return func() {}
	}
	t.mu.Lock()
	k := t.keys[key]
	if k == nil {
		k = &turn{}
		t.keys[key] = k
	}
	k.waiting++
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		if k.waiting--; k.waiting == 0 && k.released.IsZero() {
			delete(t.keys, key) // keys drawn from millions must not all stay
		}
		t.mu.Unlock()
	}
}

// releasing notes a holder's release call starting at start: a hand-off begins if
// another client waits for key.
func (t *turns) releasing(key string, start time.Time) {
	if t == nil {
		return
	}
	t.mu.Lock()
	if k := t.keys[key]; k != nil && k.waiting > 0 {
		k.released = start
	}
	t.mu.Unlock()
}

// releaseFailed withdraws the release that started at start: it freed nothing (the
// lease had run out, and whoever holds the key now was granted without it).
func (t *turns) releaseFailed(key string, start time.Time) {
	if t == nil {
		return
	}
	t.mu.Lock()
	if k := t.keys[key]; k != nil && k.released.Equal(start) {
		k.released = time.Time{}
	}
	t.mu.Unlock()
}

// granted notes key's grant at now and returns the hand-off it ended, if one was pending.
func (t *turns) granted(key string, now time.Time) (time.Duration, bool) {
	if t == nil {
		return 0, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	k := t.keys[key]
	if k == nil || k.released.IsZero() {
		return 0, false
	}
	gap := now.Sub(k.released)
	k.released = time.Time{}
	return gap, true
}
