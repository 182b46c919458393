package lab

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/nemesis"
)

func TestClientPauseHoldsTheClientUntilHealed(t *testing.T) {
	c := NewClient("A", nil, history.NewRecorder())
	heal, err := nemesis.Inject(context.Background(), "client-pause", nemesis.Target{Client: c, Duration: time.Hour, Recorder: c.rec})
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
	if h := c.rec.History(); len(h) != 1 || h[0].Kind != history.FaultInjected {
		t.Errorf("history %+v: want the fault noted", h)
	}
}

func TestClientCrashStopsEveryStep(t *testing.T) {
	rec := history.NewRecorder()
	c := NewClient("A", nil, rec)
	if _, err := nemesis.Inject(context.Background(), "client-crash", nemesis.Target{Client: c, Recorder: rec}); err != nil {
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
	rec := history.NewRecorder()
	c := NewClient("A", nil, rec)
	heals, err := nemesis.RunSchedule(context.Background(), []nemesis.Step{
		{After: 0, Fault: "client-pause", Target: nemesis.Target{Client: c, Duration: time.Hour, Recorder: rec}},
		{After: 20 * time.Millisecond, Fault: "client-crash", Target: nemesis.Target{Client: c, Recorder: rec}},
	})
	if err != nil || len(heals) != 2 {
		t.Fatalf("schedule: %d heals, %v", len(heals), err)
	}
	if err := nemesis.HealAll(context.Background(), heals); err != nil {
		t.Fatal(err)
	}
	if err := c.Checkpoint(context.Background()); !errors.Is(err, ErrCrashed) {
		t.Errorf("after pause, crash and heal: %v, want ErrCrashed", err)
	}
	var kinds []history.Kind
	for _, e := range rec.History() {
		kinds = append(kinds, e.Kind)
	}
	if len(kinds) != 3 || kinds[0] != history.FaultInjected || kinds[1] != history.FaultInjected || kinds[2] != history.Crashed {
		t.Errorf("history kinds %v: want pause noted, crash noted, crash", kinds)
	}
	other := NewClient("B", nil, rec)
	backwards := []nemesis.Step{{After: time.Millisecond, Fault: "client-crash", Target: nemesis.Target{Client: other}}, {After: 0, Fault: "client-crash", Target: nemesis.Target{Client: other}}}
	if _, err := nemesis.RunSchedule(context.Background(), backwards); err == nil || !strings.Contains(err.Error(), "comes before") {
		t.Errorf("a schedule going back in time: %v, want it refused", err)
	}
	if other.Checkpoint(context.Background()) != nil {
		t.Error("a refused schedule still injected a fault")
	}
}
