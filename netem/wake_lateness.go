package netem

import (
	"slices"
	"time"
)

// wakeLateness is the median time by which a waitUntil alarm wakes late on this
// machine now: the first estimate each toxic starts its lead from (it keeps learning
// from its own wakes afterwards). Short waits suffice: a timerfd's lateness is the
// kernel's and scheduler's wake-up time, not a fraction of the wait.
func wakeLateness(samples int) time.Duration {
	waker, release := optionalWaker()
	defer release()
	timer := newIdleTimer()
	late := make([]time.Duration, samples)
	for i := range late {
		alarm := time.Now().Add(time.Millisecond)
		waitUntil(alarm, timer, waker, nil)
		late[i] = time.Since(alarm)
	}
	slices.Sort(late)
	return late[samples/2]
}
