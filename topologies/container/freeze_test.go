package container_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lockbench/lockbench/topologies/container"
)

// The engine's message when runc gave up freezing a cgroup and thawed it.
var notFrozen = errors.New("Error response from daemon: Cannot pause container 1f: OCI runtime pause failed: " +
	"unable to freeze: unknown")

// A freeze that did not take is asked again until it does; the pause then succeeds.
func TestAPauseIsAskedAgainWhileTheFreezeDoesNotTake(t *testing.T) {
	calls := 0
	err := container.PauseUntilFrozen(context.Background(), func(context.Context) error {
		calls++
		if calls < 3 {
			return notFrozen
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Errorf("got %v after %d calls, want success on the third", err, calls)
	}
}

// Any other error is the pause's at once: a stopped or missing container is no retry.
func TestAPauseFailingOtherwiseIsNotAskedAgain(t *testing.T) {
	calls := 0
	gone := errors.New("Error response from daemon: No such container: 1f")
	err := container.PauseUntilFrozen(context.Background(), func(context.Context) error {
		calls++
		return gone
	})
	if !errors.Is(err, gone) || calls != 1 {
		t.Errorf("got %v after %d calls, want %v after one", err, calls, gone)
	}
}

// Once the pause's time is over, the last refusal is its error.
func TestAFreezeThatNeverTakesEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	err := container.PauseUntilFrozen(ctx, func(context.Context) error {
		calls++
		if calls == 2 {
			cancel()
		}
		return notFrozen
	})
	if !errors.Is(err, notFrozen) || calls != 2 {
		t.Errorf("got %v after %d calls, want the freeze's refusal after two", err, calls)
	}
}
