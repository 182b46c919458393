package safety

import (
	"context"
	"errors"
	"strings"
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

func TestScheduleInjectsInOrderAndRefusesDisorder(t *testing.T) {
	rec := NewRecorder()
	c := NewClient("A", nil, rec)
	heals, err := RunSchedule(context.Background(), []Step{
		{After: 0, Fault: "client-pause", Target: Target{Client: c, Duration: time.Hour, Recorder: rec}},
		{After: 20 * time.Millisecond, Fault: "client-crash", Target: Target{Client: c, Recorder: rec}},
	})
	if err != nil || len(heals) != 2 {
		t.Fatalf("schedule: %d heals, %v", len(heals), err)
	}
	if err := HealAll(context.Background(), heals); err != nil {
		t.Fatal(err)
	}
	if err := c.Checkpoint(context.Background()); !errors.Is(err, ErrCrashed) {
		t.Errorf("after pause, crash and heal: %v, want ErrCrashed", err)
	}
	var kinds []Kind
	for _, e := range rec.History() {
		kinds = append(kinds, e.Kind)
	}
	if len(kinds) != 3 || kinds[0] != FaultInjected || kinds[1] != FaultInjected || kinds[2] != Crashed {
		t.Errorf("history kinds %v: want pause noted, crash noted, crash", kinds)
	}
	other := NewClient("B", nil, rec)
	backwards := []Step{{After: time.Millisecond, Fault: "client-crash", Target: Target{Client: other}}, {After: 0, Fault: "client-crash", Target: Target{Client: other}}}
	if _, err := RunSchedule(context.Background(), backwards); err == nil || !strings.Contains(err.Error(), "comes before") {
		t.Errorf("a schedule going back in time: %v, want it refused", err)
	}
	if other.Checkpoint(context.Background()) != nil {
		t.Error("a refused schedule still injected a fault")
	}
}
