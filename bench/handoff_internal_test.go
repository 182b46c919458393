package bench

import (
	"testing"
	"time"
)

// TestTurnsTimeAHandOffOnlyWhileSomeoneWaits: a release while another client waits
// starts a hand-off that the key's next grant ends; a release nobody waits for, or one
// that failed, starts none.
func TestTurnsTimeAHandOffOnlyWhileSomeoneWaits(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	keys := newTurns()

	keys.releasing("k", t0) // nobody waits
	if _, ok := keys.granted("k", t0.Add(time.Millisecond)); ok {
		t.Error("a grant after a release nobody waited for was timed as a hand-off")
	}

	done := keys.wait("k")
	keys.releasing("k", t0)
	gap, ok := keys.granted("k", t0.Add(3*time.Millisecond))
	done()
	if !ok || gap != 3*time.Millisecond {
		t.Errorf("hand-off %v (%v), want 3ms", gap, ok)
	}
	if _, ok := keys.granted("k", t0.Add(5*time.Millisecond)); ok {
		t.Error("one release ended two hand-offs")
	}

	done = keys.wait("k")
	keys.releasing("k", t0)
	keys.releaseFailed("k", t0)
	if _, ok := keys.granted("k", t0.Add(time.Millisecond)); ok {
		t.Error("a failed release started a hand-off")
	}
	done()
	if len(keys.keys) != 0 {
		t.Errorf("%d keys kept after every wait ended", len(keys.keys))
	}
}
