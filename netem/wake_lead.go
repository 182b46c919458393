package netem

import (
	"sync/atomic"
	"time"
)

// wakeLead estimates the median lateness of a wake-up (the time from an alarm's
// deadline to the waiting goroutine running again), so that deadlines can be set that
// much earlier. Samples are taken against the alarm's own deadline, never against the
// delivery target, so a bigger lead does not make the next sample bigger: it cannot
// run away. Each sample moves the estimate one step toward it (a sign-driven median
// estimate), so one long preemption under load cannot drag it off.
type wakeLead struct {
	ns  atomic.Int64
	max time.Duration // never lead by more than this
}

func newWakeLead(seed, limit time.Duration) *wakeLead {
	l := &wakeLead{max: limit}
	l.ns.Store(int64(min(max(seed, 0), limit)))
	return l
}

func (l *wakeLead) get() time.Duration { return time.Duration(l.ns.Load()) }

// observe records one wake that was late by lateness.
func (l *wakeLead) observe(lateness time.Duration) {
	cur := l.get()
	step := time.Microsecond + cur/32 // fast to reach tens of µs, steady once there
	next := cur + step
	if lateness < cur {
		next = cur - step
	}
	l.ns.Store(int64(min(max(next, 0), l.max)))
}
