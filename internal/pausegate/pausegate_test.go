package pausegate

import (
	"context"
	"testing"
	"time"
)

func TestAGateIsOpenUntilPausedAndWaitsUntilResumed(t *testing.T) {
	var g Gate
	if err := g.Wait(context.Background()); err != nil {
		t.Fatalf("a new gate: %v, want open", err)
	}
	g.Pause()
	g.Pause() // twice: still one pause
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := g.Wait(ctx); err != context.DeadlineExceeded {
		t.Fatalf("a paused gate: %v, want the context's deadline", err)
	}
	passed := make(chan error)
	go func() { passed <- g.Wait(context.Background()) }()
	g.Resume()
	g.Resume() // twice: still open, no double close
	if err := <-passed; err != nil {
		t.Fatalf("a waiter after Resume: %v", err)
	}
}
