package ledger

import (
	"sync"
	"testing"
)

type entry struct {
	ID      int64
	What    string
	Outcome Outcome
}

func stampID(e *entry, id int64) { e.ID = id }

// Entries come back in the order begun, each completed in place, whatever order the
// outcomes arrive in; an unknown id changes nothing.
func TestLogKeepsBeginOrderAndCompletesByID(t *testing.T) {
	var l Log[entry]
	a := l.Begin(entry{What: "a"}, stampID)
	b := l.Begin(entry{What: "b"}, stampID)
	l.Complete(b, func(e *entry) { e.Outcome = Refused })
	l.Complete(a, func(e *entry) { e.Outcome = Applied })
	l.Complete(99, func(e *entry) { e.Outcome = Applied })
	l.Complete(0, func(e *entry) { e.Outcome = Applied })
	got := l.Entries()
	want := []entry{{1, "a", Applied}, {2, "b", Refused}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("entries %+v, want %+v", got, want)
	}
	got[0].What = "changed"
	if l.Entries()[0].What != "a" {
		t.Error("Entries shares its slice with the log")
	}
}

// Concurrent changes each get their own id, and every one is logged once.
func TestLogGivesConcurrentChangesDistinctIDs(t *testing.T) {
	var l Log[entry]
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := l.Begin(entry{}, stampID)
			l.Complete(id, func(e *entry) { e.Outcome = Applied })
		}()
	}
	wg.Wait()
	seen := map[int64]bool{}
	for _, e := range l.Entries() {
		if seen[e.ID] || e.Outcome != Applied {
			t.Fatalf("entry %+v: duplicate id or not completed", e)
		}
		seen[e.ID] = true
	}
	if len(seen) != 50 {
		t.Fatalf("%d entries, want 50", len(seen))
	}
}

func TestOutcomeNames(t *testing.T) {
	for o, want := range map[Outcome]string{Failed: "failed", Applied: "applied", Refused: "refused", Outcome(7): "failed"} {
		if o.String() != want {
			t.Errorf("%d: %q, want %q", o, o.String(), want)
		}
	}
}
