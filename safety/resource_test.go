package safety

import "testing"

func TestResourceFencedRejectsStaleWrites(t *testing.T) {
	for _, fenced := range []bool{false, true} {
		rec := NewRecorder()
		r := NewResource("r", fenced, rec)
		r.Write("B", "k", 5, true)
		stale := r.Write("A", "k", 4, true)
		r.Write("C", "k", 6, true)
		s := r.Stats()
		if fenced && (stale || s.StaleRejected != 1 || s.StaleAccepted != 0 || s.Accepted != 2) {
			t.Errorf("fenced: stale write applied=%v, stats %+v", stale, s)
		}
		if !fenced && (!stale || s.StaleAccepted != 1 || s.StaleRejected != 0 || s.Accepted != 3) {
			t.Errorf("unfenced: stale write applied=%v, stats %+v", stale, s)
		}
		// The resource's own answers and the checker's reading of them must agree.
		if c := CheckFencing(rec.History()); c.StaleAccepted != s.StaleAccepted || c.StaleRejected != s.StaleRejected {
			t.Errorf("fenced=%v: checker %+v disagrees with resource %+v", fenced, c, s)
		}
	}
}

func TestResourceCountsConcurrentHolders(t *testing.T) {
	rec := NewRecorder()
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
	if m := CheckMutualExclusion(rec.History()); m.Violations != 1 || m.Overlaps[0].Duration != s.OverlapTime {
		t.Errorf("checker %+v disagrees with resource overlap %v", m, s.OverlapTime)
	}
}
