package netem

import (
	"slices"
	"testing"
	"time"

	"github.com/lockbench/lockbench/topologies/testenv"
)

// timerfdWaker is a timerfd waker closed when t ends, or a skip without one.
func timerfdWaker(t *testing.T) *deadlineWaker {
	t.Helper()
	waker, err := newDeadlineWaker()
	if err != nil {
		testenv.MissingTool(t, err) // CI's Linux has timerfd: a failure there is a bug, not a skip
	}
	t.Cleanup(waker.close)
	return waker
}

// everyOther is waker on even waits and nil on odd ones: interleaved, both ways wait
// under the same load.
func everyOther(waker *deadlineWaker, i int) *deadlineWaker {
	if i%2 == 1 {
		return nil
	}
	return waker
}

// waitUntil never returns before its deadline, with the timerfd or without it.
func TestWaitUntilNeverReturnsEarly(t *testing.T) {
	waker := timerfdWaker(t)
	timer := newIdleTimer()
	for i := range 40 {
		w := everyOther(waker, i)
		due := time.Now().Add(time.Duration(100+50*i) * time.Microsecond)
		slept, reached := waitUntil(due, timer, w, nil)
		if now := time.Now(); !slept || !reached || now.Before(due) {
			t.Fatalf("wait %d (timerfd %v): slept %v reached %v, %v before due", i, w != nil, slept, reached, due.Sub(now))
		}
	}
	if slept, reached := waitUntil(time.Now().Add(-time.Millisecond), timer, waker, nil); slept || !reached {
		t.Errorf("a past deadline: slept %v reached %v, want no sleep", slept, reached)
	}
}

func TestWaitUntilStopsOnInterrupt(t *testing.T) {
	timer := newIdleTimer()
	interrupt := make(chan struct{})
	go func() { interrupt <- struct{}{} }()
	if _, reached := waitUntil(time.Now().Add(time.Hour), timer, nil, interrupt); reached {
		t.Error("reached an hour-away deadline")
	}
}

// The reason for the timerfd: when the process is idle a Go timer wakes at epoll's
// next whole millisecond, so for waits of 1.5 ms it is late by about half a
// millisecond, the timerfd by the kernel's wake-up time. Compared within one run.
func TestTimerfdWakesSoonerThanAGoTimer(t *testing.T) {
	waker := timerfdWaker(t)
	timer := newIdleTimer()
	var withFd, goOnly []time.Duration
	for i := range 200 {
		w := everyOther(waker, i)
		due := time.Now().Add(1500 * time.Microsecond)
		waitUntil(due, timer, w, nil)
		if late := time.Since(due); w != nil {
			withFd = append(withFd, late)
		} else {
			goOnly = append(goOnly, late)
		}
	}
	slices.Sort(withFd)
	slices.Sort(goOnly)
	fd, gt := withFd[len(withFd)/2], goOnly[len(goOnly)/2]
	t.Logf("median lateness at 1.5 ms: timerfd %v, Go timer %v", fd, gt)
	if fd >= gt {
		t.Errorf("timerfd median lateness %v not below the Go timer's %v", fd, gt)
	}
}
