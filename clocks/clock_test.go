package clocks

import (
	"testing"
	"time"
)

func TestFakeClockWakesWaitersOnlyWhenDue(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := NewFake(start)
	done := make(chan time.Time, 1)
	go func() {
		f.Sleep(time.Second)
		done <- f.Now()
	}()
	f.BlockUntil(1)
	f.Advance(999 * time.Millisecond)
	select {
	case <-done:
		t.Fatal("Sleep(1s) returned after 999ms of fake time")
	default:
	}
	f.Advance(time.Millisecond)
	if got := <-done; !got.Equal(start.Add(time.Second)) {
		t.Errorf("woke at %v, want %v", got, start.Add(time.Second))
	}
	if f.Waiters() != 0 {
		t.Errorf("%d waiters left", f.Waiters())
	}
	if d := f.Since(start); d != time.Second {
		t.Errorf("Since(start) = %v", d)
	}
}

func TestFakeAfterZeroFiresAtOnce(t *testing.T) {
	f := NewFake(time.Unix(0, 0))
	select {
	case <-f.After(0):
	default:
		t.Fatal("After(0) did not fire at once")
	}
}

func TestNodeClockFollowsItsModelOnAFakeClock(t *testing.T) {
	f := NewFake(time.Unix(1000, 0))
	n := NewNodeClock(Model{Rate: 2, Jumps: []Jump{{After: "grant", By: time.Minute}}}, f)
	f.Advance(time.Second)
	if got, want := n.Now(), time.Unix(1002, 0); !got.Equal(want) {
		t.Errorf("Now = %v, want %v", got, want)
	}
	n.FireNow("grant")
	if got, want := n.Now(), time.Unix(1062, 0); !got.Equal(want) {
		t.Errorf("Now after grant = %v, want %v", got, want)
	}
	if n.Elapsed() != time.Second {
		t.Errorf("Elapsed = %v", n.Elapsed())
	}
}

func TestRealClockMoves(t *testing.T) {
	var c Clock = Real{}
	a := c.Now()
	<-c.After(time.Millisecond)
	if c.Since(a) < time.Millisecond {
		t.Error("Real clock: After(1ms) fired before 1ms passed")
	}
}
