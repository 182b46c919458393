package netem

import "time"

// newIdleTimer is a stopped timer for waitUntil to re-arm: made once per waiter, not per wait.
func newIdleTimer() *time.Timer {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	return timer
}

// optionalWaker is a timerfd waker where the system has one, else nil (Go timers alone:
// correct, up to 1 ms late when idle); release closes it.
func optionalWaker() (waker *deadlineWaker, release func()) {
	waker, err := newDeadlineWaker()
	if err != nil {
		return nil, func() {}
	}
	return waker, waker.close
}

// waitUntil blocks until the monotonic clock reaches due, or until interrupt. It
// reports whether it had to sleep at all (due was still ahead) and whether due was
// reached. Two alarms race and the first wins: the timerfd (prompt when the process is
// idle) and a Go timer (prompt when the scheduler is busy, because it checks timers at
// every goroutine switch, but late by epoll's whole milliseconds when idle). Either
// may fire stale for an earlier deadline, so the clock itself decides.
func waitUntil(due time.Time, timer *time.Timer, waker *deadlineWaker, interrupt <-chan struct{}) (slept,
	reached bool) {
	wait := time.Until(due)
	if wait <= 0 {
		return false, true
	}
	var fired <-chan struct{}
	if waker != nil && waker.arm(wait) == nil {
		fired = waker.fired
	}
	timer.Reset(wait)
	defer timer.Stop()
	for time.Now().Before(due) {
		select {
		case <-fired:
		case <-timer.C:
		case <-interrupt:
			return true, false
		}
	}
	return true, true
}
