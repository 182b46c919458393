package nemesis

import (
	"context"
	"errors"
	"time"
)

// clientPause stops a client (and its watchdog) at its next checkpoint for Duration,
// like a stop-the-world GC pause. The heal resumes it early.
type clientPause struct{}

func init() { Register(clientPause{}) }

func (clientPause) Name() string { return "client-pause" }

func (clientPause) Inject(_ context.Context, t Target) (Heal, error) {
	if t.Client == nil || t.Duration <= 0 {
		return nil, errors.New("needs a client and a duration > 0")
	}
	t.Client.Pause()
	t.note("client-pause " + t.Client.String() + " for " + t.Duration.String())
	timer := time.AfterFunc(t.Duration, t.Client.Resume)
	return func(context.Context) error {
		timer.Stop()
		t.Client.Resume()
		return nil
	}, nil
}
