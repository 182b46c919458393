//go:build !linux

package netem

import (
	"errors"
	"time"
)

// deadlineWaker has no timerfd off Linux: newDeadlineWaker fails and waits fall back
// to Go timers alone.
type deadlineWaker struct{ fired chan struct{} }

func newDeadlineWaker() (*deadlineWaker, error) {
	return nil, errors.New("no timerfd on this system")
}

func (w *deadlineWaker) arm(time.Duration) error { return nil }
func (w *deadlineWaker) close()                  {}
