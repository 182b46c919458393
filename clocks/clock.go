package clocks

import (
	"sort"
	"sync"
	"time"
)

// Clock is the harness's own notion of time: real in runs, fake in tests of code that
// waits, so that a test advances time instead of sleeping.
type Clock interface {
	Now() time.Time
	Since(t time.Time) time.Duration
	// After delivers the time once d has passed.
	After(d time.Duration) <-chan time.Time
	Sleep(d time.Duration)
}

// Real is the machine's clock (with Go's monotonic reading).
type Real struct{}

func (Real) Now() time.Time                         { return time.Now() }
func (Real) Since(t time.Time) time.Duration        { return time.Since(t) }
func (Real) After(d time.Duration) <-chan time.Time { return time.After(d) }
func (Real) Sleep(d time.Duration)                  { time.Sleep(d) }

// Fake is a clock that moves only when Advance is called.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	waiters []fakeWaiter
	changed chan struct{} // closed and replaced whenever a waiter is added
}

type fakeWaiter struct {
	due time.Time
	ch  chan time.Time
}

// NewFake returns a fake clock that reads start.
func NewFake(start time.Time) *Fake {
	return &Fake{now: start, changed: make(chan struct{})}
}

func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *Fake) Since(t time.Time) time.Duration { return f.Now().Sub(t) }

func (f *Fake) After(d time.Duration) <-chan time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan time.Time, 1)
	due := f.now.Add(d)
	if d <= 0 {
		ch <- f.now
		return ch
	}
	f.waiters = append(f.waiters, fakeWaiter{due: due, ch: ch})
	close(f.changed)
	f.changed = make(chan struct{})
	return ch
}

func (f *Fake) Sleep(d time.Duration) { <-f.After(d) }

// Advance moves the clock by d and wakes, in due order, every waiter due by then.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	var due, rest []fakeWaiter
	for _, w := range f.waiters {
		if !w.due.After(f.now) {
			due = append(due, w)
		} else {
			rest = append(rest, w)
		}
	}
	f.waiters = rest
	now := f.now
	f.mu.Unlock()
	sort.SliceStable(due, func(a, b int) bool { return due[a].due.Before(due[b].due) })
	for _, w := range due {
		w.ch <- now
	}
}

// Waiters is how many After/Sleep calls are pending.
func (f *Fake) Waiters() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiters)
}

// BlockUntil returns once at least n calls wait on the clock, so a test advances time
// only after the code under test has started waiting.
func (f *Fake) BlockUntil(n int) {
	for {
		f.mu.Lock()
		if len(f.waiters) >= n {
			f.mu.Unlock()
			return
		}
		changed := f.changed
		f.mu.Unlock()
		<-changed
	}
}

// NodeClock is a node's clock as a model makes it: a Timeline read against a harness
// Clock from the instant the node started.
type NodeClock struct {
	*Timeline
	clock Clock
	start time.Time
}

// NewNodeClock starts m's timeline now on clock (Real{} if nil).
func NewNodeClock(m Model, clock Clock) *NodeClock {
	if clock == nil {
		clock = Real{}
	}
	return &NodeClock{Timeline: NewTimeline(m), clock: clock, start: clock.Now()}
}

// Elapsed is real time since the node's clock started.
func (n *NodeClock) Elapsed() time.Duration { return n.clock.Since(n.start) }

// Start is the real instant the node's clock started.
func (n *NodeClock) Start() time.Time { return n.start }

// Now is what the node's wall clock reads.
func (n *NodeClock) Now() time.Time { return n.start.Add(n.Reading(n.Elapsed())) }

// FireNow records event as happening now, triggering the jumps that wait for it.
func (n *NodeClock) FireNow(event string) { n.Fire(event, n.Elapsed()) }
