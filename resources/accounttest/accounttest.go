// Package accounttest holds what the tests of the account resources (pgaccount,
// redisaccount) do alike: a bound that stops a hung test, a change paused where its
// race is made, and a parser of names checked.
package accounttest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/resources/ledger"
)

// Ctx bounds a test only so that a hung one stops; no result depends on the bound.
func Ctx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Paused runs apply, which sets between as its change's Between hook, with its client
// paused there: it waits until the client is, runs during (the other client's
// change), lets it go and returns what apply returned. A change that finishes without
// pausing fails the test, named by what.
func Paused[R any](t *testing.T, what string, apply func(between func(context.Context) error) R, during func()) R {
	t.Helper()
	pausedAt, release := make(chan struct{}), make(chan struct{})
	between := func(ctx context.Context) error {
		close(pausedAt)
		select {
		case <-release:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	done := make(chan R, 1)
	go func() { done <- apply(between) }()
	select {
	case <-pausedAt:
	case res := <-done:
		t.Fatalf("%s finished without pausing: %+v", what, res)
	}
	during()
	close(release)
	return <-done
}

// Result is what applying one change returned; Retries is 0 for a way that never retries.
type Result struct {
	Out     ledger.Outcome
	Retries int
	Err     error
}

// PausedChange is Paused for one change applied by how (a mode or method) for client:
// apply sets between as the change's Between hook and applies it.
func PausedChange(t *testing.T, how any, client string,
	apply func(between func(context.Context) error) (ledger.Outcome, int, error), during func()) Result {
	t.Helper()
	return Paused(t, fmt.Sprintf("%s: %s", how, client), func(between func(context.Context) error) Result {
		out, retries, err := apply(between)
		return Result{out, retries, err}
	}, during)
}

// Concurrently has clients goroutines, released at once, each apply each changes in
// turn (apply gets the client's name); a client stops at its first change not applied.
// It returns those failures and the retries of every change.
func Concurrently(clients, each int, apply func(client string) (ledger.Outcome, int, error)) (failures []error,
	retries int) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(client string) {
			defer wg.Done()
			<-start
			for i := 0; i < each; i++ {
				out, n, err := apply(client)
				failed := err != nil || out != ledger.Applied
				mu.Lock()
				retries += n
				if failed {
					failures = append(failures, fmt.Errorf("%v: %v", out, err))
				}
				mu.Unlock()
				if failed {
					return
				}
			}
		}(fmt.Sprint("c", c))
	}
	close(start)
	wg.Wait()
	return failures, retries
}

// CheckParse checks that parse reads every name of all back to itself, and refuses
// each of bad with an error naming it and the known name known.
func CheckParse[T ~string](t *testing.T, all []T, parse func(string) (T, error), bad []string, known T) {
	t.Helper()
	for _, m := range all {
		got, err := parse(string(m))
		if err != nil || got != m {
			t.Fatalf("parse(%q) = %v, %v", m, got, err)
		}
	}
	for _, b := range bad {
		_, err := parse(b)
		if err == nil || !strings.Contains(err.Error(), `"`+b+`"`) || !strings.Contains(err.Error(), string(known)) {
			t.Fatalf("parse(%q): err %v; want one naming it and the known names", b, err)
		}
	}
}

// Audit reads a resource's audit back, failing t on an error, and logs it.
func Audit[A any](t *testing.T, ctx context.Context, audit func(context.Context) (A, error)) A {
	t.Helper()
	a, err := audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("audit: %+v", a)
	return a
}
