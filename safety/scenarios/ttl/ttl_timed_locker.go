package ttl

import (
	"context"
	"sync"
	"time"

	"github.com/lockbench/lockbench/locks"
)

// timedLocker times its locker's writes to the key (the grant, each extension) and
// holds the caller right after extension #crashAfter replied, until letGo: the
// holder crashes there, its last write's round trip known.
type timedLocker struct {
	locks.Locker
	crashAfter int

	mu            sync.Mutex
	sent, replied time.Time
	sends         []time.Time // when each successful write was sent
	replies       []time.Time // and when it replied
	extensions    int
	reached       chan struct{} // closed when extension #crashAfter replied
	released      chan struct{} // closed by letGo
	once          sync.Once
}

func newTimedLocker(l locks.Locker, crashAfter int) *timedLocker {
	return &timedLocker{Locker: l, crashAfter: crashAfter, reached: make(chan struct{}), released: make(chan struct{})}
}

func (l *timedLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	sent := time.Now()
	lease, err := l.Locker.Acquire(ctx, key, ttl)
	if err == nil {
		l.wrote(sent, time.Now())
	}
	return lease, err
}

func (l *timedLocker) Extend(ctx context.Context, lease locks.Lease, ttl time.Duration) (locks.Lease, error) {
	sent := time.Now()
	next, err := l.Locker.Extend(ctx, lease, ttl)
	if err != nil {
		return next, err
	}
	l.wrote(sent, time.Now())
	l.mu.Lock()
	l.extensions++
	n := l.extensions
	l.mu.Unlock()
	if n == l.crashAfter {
		close(l.reached)
		select {
		case <-l.released:
		case <-ctx.Done():
		}
	}
	return next, nil
}

func (l *timedLocker) wrote(sent, replied time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sent, l.replied = sent, replied
	l.sends = append(l.sends, sent)
	l.replies = append(l.replies, replied)
}

// longestReach is the longest time from a successful write's send to the next one's
// reply, the last reaching to readReplied (the holder's final read): the key outlived
// every reach shorter than its TTL (less Redis's millisecond), whatever the machine did.
func (l *timedLocker) longestReach(readReplied time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var longest time.Duration
	for i, sent := range l.sends {
		next := readReplied
		if i+1 < len(l.replies) {
			next = l.replies[i+1]
		}
		longest = max(longest, next.Sub(sent))
	}
	return longest
}

// sentAfter counts the successful writes sent after at: after a crash, none may be.
func (l *timedLocker) sentAfter(at time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.sends {
		if s.After(at) {
			n++
		}
	}
	return n
}

// lastWrite is when the last successful write to the key was sent and replied.
func (l *timedLocker) lastWrite() (sent, replied time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sent, l.replied
}

// letGo frees a caller held after its extension.
func (l *timedLocker) letGo() { l.once.Do(func() { close(l.released) }) }
