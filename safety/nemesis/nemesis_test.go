package nemesis

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lockbench/lockbench/safety/history"
)

func TestRegistry(t *testing.T) {
	for _, name := range []string{"client-pause", "client-crash", "node-kill", "node-restart-empty", "node-restart-from-disk", "node-pause", "replication-pause", "replication-link-kill"} {
		if _, err := Named(name); err != nil {
			t.Errorf("fault %s: %v", name, err)
		}
	}
	if _, err := Named("meteor"); err == nil {
		t.Error("an unknown fault was found")
	}
	for _, name := range []string{"node-kill", "node-pause", "replication-link-kill", "client-pause", "client-crash"} {
		if _, err := Inject(context.Background(), name, Target{}); err == nil {
			t.Errorf("%s with nothing to act on: no error", name)
		}
	}
}

// fakeClient counts what the nemesis did to it.
type fakeClient struct{ paused, resumed, crashed int }

func (f *fakeClient) Pause()         { f.paused++ }
func (f *fakeClient) Resume()        { f.resumed++ }
func (f *fakeClient) Crash()         { f.crashed++ }
func (f *fakeClient) String() string { return "fake" }

func TestClientFaultsAreNoted(t *testing.T) {
	rec := history.NewRecorder()
	c := &fakeClient{}
	heal, err := Inject(context.Background(), "client-pause", Target{Client: c, Duration: time.Hour, Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	if c.paused != 1 || c.resumed != 0 {
		t.Errorf("after client-pause: %+v, want paused and not resumed", c)
	}
	if err := heal(context.Background()); err != nil || c.resumed != 1 {
		t.Errorf("heal: %v, %+v: want resumed once", err, c)
	}
	if _, err := Inject(context.Background(), "client-crash", Target{Client: c, Recorder: rec}); err != nil || c.crashed != 1 {
		t.Errorf("client-crash: %v, %+v", err, c)
	}
	if h := rec.History(); len(h) != 2 || h[0].Kind != history.FaultInjected || h[1].Kind != history.FaultInjected {
		t.Errorf("history %+v: want both faults noted", h)
	}
}

func TestOnceHealsOnceAndKeepsItsError(t *testing.T) {
	calls := 0
	failed := errors.New("resume failed")
	h := once(func(context.Context) error { calls++; return failed })
	for range 3 {
		if err := h(context.Background()); !errors.Is(err, failed) {
			t.Fatalf("heal returned %v, want %v", err, failed)
		}
	}
	if calls != 1 {
		t.Fatalf("the fault was healed %d times, want once", calls)
	}
}
