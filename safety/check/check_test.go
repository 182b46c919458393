package safety

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// at is t0 plus ms milliseconds: hand-written histories read as timelines.
func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

func enter(ms int, client string) Event {
	return Event{Time: at(ms), Client: client, Kind: Entered, Resource: "r", Key: "k"}
}
func leave(ms int, client string) Event {
	return Event{Time: at(ms), Client: client, Kind: Left, Resource: "r", Key: "k"}
}
func write(ms int, client string, fence int64, accepted bool) Event {
	return Event{Time: at(ms), Client: client, Kind: Write, Resource: "r", Key: "k", Fence: fence, HasFence: true, Accepted: accepted}
}
func invoke(ms int, client string) Event {
	return Event{Time: at(ms), Client: client, Kind: AcquireInvoked, Key: "k"}
}
func grant(ms int, client, token string, validMs int) Event {
	return Event{Time: at(ms), Client: client, Kind: AcquireGranted, Key: "k", Token: token, ValidUntil: at(validMs)}
}
func release(ms int, client, token string) []Event {
	return []Event{
		{Time: at(ms), Client: client, Kind: ReleaseInvoked, Key: "k", Token: token},
		{Time: at(ms + 1), Client: client, Kind: Released, Key: "k", Token: token, OK: true},
	}
}
func observe(ms int, present bool, holder string, ttl time.Duration) Event {
	return Event{Time: at(ms), Client: "observer", Kind: Observed, Key: "k", Node: "127.0.0.1:1", Present: present, Holder: holder, TTL: ttl}
}

func history(parts ...any) History {
	var h History
	for _, p := range parts {
		switch v := p.(type) {
		case Event:
			h = append(h, v)
		case []Event:
			h = append(h, v...)
		}
	}
	return h
}

func TestMutualExclusion(t *testing.T) {
	sequential := history(invoke(0, "A"), grant(1, "A", "a", 100), enter(2, "A"), leave(10, "A"), release(11, "A", "a"),
		invoke(5, "B"), grant(12, "B", "b", 100), enter(13, "B"), leave(20, "B"))
	if r := CheckMutualExclusion(sequential); r.Violations != 0 {
		t.Errorf("sequential holders: %d violations, want 0 (%+v)", r.Violations, r.Overlaps)
	}
	touching := history(enter(0, "A"), leave(10, "A"), enter(10, "B"), leave(20, "B"))
	if r := CheckMutualExclusion(touching); r.Violations != 0 {
		t.Errorf("B entering the instant A left: %d violations, want 0", r.Violations)
	}
	overlapping := history(enter(0, "A"), enter(5, "B"), leave(10, "A"), leave(20, "B"))
	r := CheckMutualExclusion(overlapping)
	if r.Violations != 1 || r.Overlaps[0].Duration != 5*time.Millisecond || r.Overlaps[0].First != "A" || r.Overlaps[0].Second != "B" {
		t.Errorf("A and B inside together for 5 ms: got %+v", r)
	}
	neverLeft := history(enter(0, "A"), enter(30, "B"), leave(40, "B"))
	if r := CheckMutualExclusion(neverLeft); r.Violations != 1 || r.Overlaps[0].Duration != 10*time.Millisecond {
		t.Errorf("A never left, B stayed 10 ms: got %+v", r)
	}
	otherResource := history(enter(0, "A"), Event{Time: at(5), Client: "B", Kind: Entered, Resource: "s"}, leave(10, "A"))
	if r := CheckMutualExclusion(otherResource); r.Violations != 0 {
		t.Errorf("different resources: %d violations, want 0", r.Violations)
	}
	three := history(enter(0, "A"), enter(1, "B"), enter(2, "C"), leave(10, "A"), leave(10, "B"), leave(10, "C"))
	if r := CheckMutualExclusion(three); r.Violations != 3 {
		t.Errorf("three holders at once: %d violating pairs, want 3", r.Violations)
	}
}

func TestFencing(t *testing.T) {
	increasing := history(write(0, "A", 1, true), write(5, "B", 2, true), write(9, "C", 7, true))
	if r := CheckFencing(increasing); r.Violations != 0 || r.StaleAccepted != 0 || r.StaleRejected != 0 {
		t.Errorf("increasing tokens: %+v, want all zero", r)
	}
	backwards := history(write(0, "B", 2, true), write(5, "A", 1, true))
	if r := CheckFencing(backwards); r.Violations != 1 || r.StaleAccepted != 1 {
		t.Errorf("token 1 accepted after 2: %+v, want 1 violation", r)
	}
	rejected := history(write(0, "B", 2, true), write(5, "A", 1, false), write(6, "C", 2, false))
	if r := CheckFencing(rejected); r.Violations != 0 || r.StaleRejected != 2 {
		t.Errorf("stale tokens rejected: %+v, want 0 violations and 2 rejected", r)
	}
	repeated := history(write(0, "B", 2, true), write(5, "C", 2, true))
	if r := CheckFencing(repeated); r.Violations != 0 || r.StaleAccepted != 1 {
		t.Errorf("token 2 accepted twice: %+v, want a stale acceptance and no regression", r)
	}
	perResource := history(write(0, "B", 2, true), Event{Time: at(1), Kind: Write, Resource: "s", Fence: 1, HasFence: true, Accepted: true})
	if r := CheckFencing(perResource); r.Violations != 0 {
		t.Errorf("token 1 on another resource: %+v, want 0", r)
	}
}

func TestTokens(t *testing.T) {
	fenced := func(ms int, client string, fence int64) Event {
		e := grant(ms, client, client, ms+100)
		e.Fence, e.HasFence = fence, true
		return e
	}
	if r := CheckTokens(history(fenced(0, "A", 10), fenced(5, "B", 11), fenced(9, "C", 12))); r.Reissued != 0 {
		t.Errorf("growing fences: %d reissued, want 0", r.Reissued)
	}
	if r := CheckTokens(history(fenced(0, "A", 10), fenced(5, "B", 11), fenced(9, "C", 11), fenced(10, "D", 9))); r.Reissued != 2 {
		t.Errorf("fence 11 twice then 9: %d reissued, want 2", r.Reissued)
	}
}

func TestLostLocks(t *testing.T) {
	held := history(grant(0, "A", "a", 1000), observe(10, true, "a", 900*time.Millisecond))
	if r := CheckLostLocks(held); r.Lost != 0 {
		t.Errorf("key present with A's token: %d lost, want 0", r.Lost)
	}
	missing := history(grant(0, "A", "a", 1000), observe(10, false, "", 0))
	if r := CheckLostLocks(missing); r.Lost != 1 {
		t.Errorf("key missing while A believes it: %d lost, want 1", r.Lost)
	}
	stolen := history(grant(0, "A", "a", 1000), observe(10, true, "b", time.Second), observe(20, false, "", 0))
	if r := CheckLostLocks(stolen); r.Lost != 1 {
		t.Errorf("key owned by b while A believes it: %d lost, want 1 (one lease, counted once)", r.Lost)
	}
	expired := history(grant(0, "A", "a", 100), observe(150, false, "", 0))
	if r := CheckLostLocks(expired); r.Lost != 0 {
		t.Errorf("missing after A's validity: %d lost, want 0", r.Lost)
	}
	released := history(grant(0, "A", "a", 1000), release(50, "A", "a"), observe(60, false, "", 0))
	if r := CheckLostLocks(released); r.Lost != 0 {
		t.Errorf("missing after A released: %d lost, want 0", r.Lost)
	}
	extended := history(grant(0, "A", "a", 100),
		Event{Time: at(50), Client: "A", Kind: Extended, Key: "k", Token: "a", OK: true, ValidUntil: at(1000)},
		observe(500, false, "", 0))
	if r := CheckLostLocks(extended); r.Lost != 1 {
		t.Errorf("missing after an extension to 1000 ms: %d lost, want 1", r.Lost)
	}
	crashed := history(grant(0, "A", "a", 1000), Event{Time: at(5), Client: "A", Kind: Crashed}, observe(10, false, "", 0))
	if r := CheckLostLocks(crashed); r.Lost != 0 {
		t.Errorf("missing after A crashed: %d lost, want 0", r.Lost)
	}
}

func TestOrphans(t *testing.T) {
	crashedMidAcquire := history(invoke(0, "A"), Event{Time: at(1), Client: "A", Kind: Crashed}, observe(5000, true, "a", NoExpiry))
	if r := CheckOrphans(crashedMidAcquire); r.Orphans != 1 {
		t.Errorf("key without expiry, owner dead: %d orphans, want 1", r.Orphans)
	}
	withTTL := history(invoke(0, "A"), Event{Time: at(1), Client: "A", Kind: Crashed}, observe(20, true, "a", 900*time.Millisecond))
	if r := CheckOrphans(withTTL); r.Orphans != 0 {
		t.Errorf("key with a TTL: %d orphans, want 0 (it will expire)", r.Orphans)
	}
	ownerAlive := history(grant(0, "A", "a", 1000), observe(20, true, "a", NoExpiry))
	if r := CheckOrphans(ownerAlive); r.Orphans != 0 {
		t.Errorf("key without expiry, owner holding it: %d orphans, want 0", r.Orphans)
	}
	ownerReleased := history(grant(0, "A", "a", 1000), release(10, "A", "a"), observe(20, true, "a", NoExpiry))
	if r := CheckOrphans(ownerReleased); r.Orphans != 1 {
		t.Errorf("key still there after its release gave up: %d orphans, want 1", r.Orphans)
	}
}

func TestLinearizable(t *testing.T) {
	dir := t.TempDir()
	sequential := history(invoke(0, "A"), grant(1, "A", "a", 100), enter(2, "A"), invoke(3, "B"),
		Event{Time: at(4), Client: "B", Kind: AcquireRefused, Key: "k"}, leave(10, "A"), release(11, "A", "a"),
		invoke(13, "B"), grant(14, "B", "b", 100), enter(15, "B"), leave(20, "B"), release(21, "B", "b"))
	r, err := CheckLinearizable(sequential, 10*time.Second, filepath.Join(dir, "ok.html"))
	if err != nil || r.Result != "Ok" || r.Visualization != "" {
		t.Errorf("sequential holders: %+v %v, want Ok and no page", r, err)
	}
	if r.Operations != 5 {
		t.Errorf("sequential holders: %d operations, want 5 (2 acquires, 1 refusal, 2 releases)", r.Operations)
	}
	twoHolders := history(invoke(0, "A"), grant(1, "A", "a", 100), enter(2, "A"),
		invoke(3, "B"), grant(4, "B", "b", 100), enter(5, "B"), leave(10, "A"), release(11, "A", "a"), leave(20, "B"), release(21, "B", "b"))
	page := filepath.Join(dir, "two-holders.html")
	r, err = CheckLinearizable(twoHolders, 10*time.Second, page)
	if err != nil || r.Result != "Illegal" || r.Visualization != page {
		t.Fatalf("two holders at once: %+v %v, want Illegal with a page", r, err)
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "<html") {
		t.Errorf("visualization %s: %v, not an HTML page", page, err)
	}
	neverReleased := history(invoke(0, "A"), grant(1, "A", "a", 100), enter(2, "A"), invoke(50, "B"), grant(51, "B", "b", 100), enter(52, "B"))
	if r, _ := CheckLinearizable(neverReleased, 10*time.Second, ""); r.Result != "Illegal" {
		t.Errorf("B entered while A never left: %s, want Illegal", r.Result)
	}
}
