package safety

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestFaultRegistry(t *testing.T) {
	for _, name := range []string{"client-pause", "client-crash", "node-kill", "node-restart-empty", "node-restart-from-disk", "node-pause", "replication-pause", "replication-link-kill"} {
		if _, err := FaultNamed(name); err != nil {
			t.Errorf("fault %s: %v", name, err)
		}
	}
	if _, err := FaultNamed("meteor"); err == nil {
		t.Error("an unknown fault was found")
	}
	for _, name := range []string{"node-kill", "node-pause", "replication-link-kill"} {
		if _, err := inject(context.Background(), name, Target{}); err == nil {
			t.Errorf("%s with no nodes: no error", name)
		}
	}
}

func TestClientPauseHoldsTheClientUntilHealed(t *testing.T) {
	c := NewClient("A", nil, NewRecorder())
	heal, err := inject(context.Background(), "client-pause", Target{Client: c, Duration: time.Hour, Recorder: c.rec})
	if err != nil {
		t.Fatal(err)
	}
	passed := make(chan error)
	go func() { passed <- c.Checkpoint(context.Background()) }()
	select {
	case err := <-passed:
		t.Fatalf("checkpoint passed during the pause: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	heal(context.Background())
	if err := <-passed; err != nil {
		t.Fatalf("checkpoint after heal: %v", err)
	}
	if h := c.rec.History(); len(h) != 1 || h[0].Kind != FaultInjected {
		t.Errorf("history %+v: want the fault noted", h)
	}
}

func TestClientCrashStopsEveryStep(t *testing.T) {
	rec := NewRecorder()
	c := NewClient("A", nil, rec)
	if _, err := inject(context.Background(), "client-crash", Target{Client: c, Recorder: rec}); err != nil {
		t.Fatal(err)
	}
	if err := c.Checkpoint(context.Background()); !errors.Is(err, ErrCrashed) {
		t.Errorf("checkpoint after crash: %v, want ErrCrashed", err)
	}
	if _, err := c.Acquire(context.Background(), "k", time.Second); !errors.Is(err, ErrCrashed) {
		t.Errorf("acquire after crash: %v, want ErrCrashed", err)
	}
}
