package lab

import "testing"

// A family registers its scenarios at the first lookup after it was kept, once: by
// then every store's init has run, which its params' defaults read.
func TestAFamilyRegistersAtTheNextLookupOnce(t *testing.T) {
	calls := 0
	RegisterFamily(func() {
		calls++
		Register(countingScenario{ran: new(int)}, About{Name: "late-family", Summary: "a family kept, then asked"})
	})
	if calls != 0 {
		t.Fatalf("the family registered %d times before any lookup", calls)
	}
	s, err := Lookup("late-family")
	if err != nil || s.Summary() != "a family kept, then asked" {
		t.Fatalf("lookup: %v, %v", s, err)
	}
	if _, err := StartsOf("late-family"); err != nil || calls != 1 {
		t.Errorf("second ask: %v; the family registered %d times, want once", err, calls)
	}
}
