package lab

import (
	"testing"

	"github.com/lockbench/lockbench/safety/check"
	"github.com/lockbench/lockbench/safety/history"
)

func TestResourceFencedRejectsStaleWrites(t *testing.T) {
	for _, fenced := range []bool{false, true} {
		rec := history.NewRecorder()
		r := NewResource("r", fenced, rec)
		r.Write("B", "k", "tB", 5, true)
		stale := r.Write("A", "k", "tA", 4, true)
		r.Write("C", "k", "tC", 6, true)
		s := r.Stats()
		if fenced && (stale || s.StaleRejected != 1 || s.StaleAccepted != 0 || s.Accepted != 2) {
			t.Errorf("fenced: stale write applied=%v, stats %+v", stale, s)
		}
		if !fenced && (!stale || s.StaleAccepted != 1 || s.StaleRejected != 0 || s.Accepted != 3) {
			t.Errorf("unfenced: stale write applied=%v, stats %+v", stale, s)
		}
		// The resource's own answers and the checker's reading of them must agree.
		if c := check.Fencing(rec.History()); c.StaleAccepted != s.StaleAccepted || c.StaleRejected != s.StaleRejected {
			t.Errorf("fenced=%v: checker %+v disagrees with resource %+v", fenced, c, s)
		}
	}
}

func TestResourceCountsConcurrentHolders(t *testing.T) {
	rec := history.NewRecorder()
	r := NewResource("r", false, rec)
	r.Enter("A", "k", "a")
	r.Leave("A", "k")
	r.Enter("B", "k", "b")
	if s := r.Stats(); s.MaxHolders != 1 || s.OverlapTime != 0 {
		t.Fatalf("one at a time: %+v", s)
	}
	r.Enter("C", "k", "c")
	r.Leave("B", "k")
	r.Leave("C", "k")
	s := r.Stats()
	if s.MaxHolders != 2 || s.OverlapTime <= 0 {
		t.Errorf("B and C together: %+v, want 2 holders and some overlap time", s)
	}
	if m := check.MutualExclusion(rec.History()); m.Violations != 1 || m.Overlaps[0].Duration != s.OverlapTime {
		t.Errorf("checker %+v disagrees with resource overlap %v", m, s.OverlapTime)
	}
}
