package check

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/lockbench/lockbench/safety/history"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// at is t0 plus ms milliseconds: hand-written histories read as timelines.
func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

func enter(ms int, client string) history.Event {
	return history.Event{Time: at(ms), Client: client, Kind: history.Entered, Resource: "r", Key: "k"}
}
func leave(ms int, client string) history.Event {
	return history.Event{Time: at(ms), Client: client, Kind: history.Left, Resource: "r", Key: "k"}
}
func write(ms int, client string, fence int64, accepted bool) history.Event {
	return history.Event{Time: at(ms), Client: client, Kind: history.Write, Resource: "r", Key: "k", Fence: fence, HasFence: true, Accepted: accepted}
}
func invoke(ms int, client string) history.Event {
	return history.Event{Time: at(ms), Client: client, Kind: history.AcquireInvoked, Key: "k"}
}
func grant(ms int, client, token string, validMs int) history.Event {
	return history.Event{Time: at(ms), Client: client, Kind: history.AcquireGranted, Key: "k", Token: token, ValidUntil: at(validMs)}
}
func release(ms int, client, token string) []history.Event {
	return []history.Event{
		{Time: at(ms), Client: client, Kind: history.ReleaseInvoked, Key: "k", Token: token},
		{Time: at(ms + 1), Client: client, Kind: history.Released, Key: "k", Token: token, OK: true},
	}
}
func observe(ms int, present bool, holder string, ttl time.Duration) history.Event {
	return history.Event{Time: at(ms), Client: "observer", Kind: history.Observed, Key: "k", Node: "127.0.0.1:1", Present: present, Holder: holder, TTL: ttl}
}

func hist(parts ...any) history.History {
	var h history.History
	for _, p := range parts {
		switch v := p.(type) {
		case history.Event:
			h = append(h, v)
		case []history.Event:
			h = append(h, v...)
		}
	}
	return h
}

func TestMutualExclusion(t *testing.T) {
	sequential := hist(invoke(0, "A"), grant(1, "A", "a", 100), enter(2, "A"), leave(10, "A"), release(11, "A", "a"),
		invoke(5, "B"), grant(12, "B", "b", 100), enter(13, "B"), leave(20, "B"))
	if r := MutualExclusion(sequential); r.Violations != 0 {
		t.Errorf("sequential holders: %d violations, want 0 (%+v)", r.Violations, r.Overlaps)
	}
	touching := hist(enter(0, "A"), leave(10, "A"), enter(10, "B"), leave(20, "B"))
	if r := MutualExclusion(touching); r.Violations != 0 {
		t.Errorf("B entering the instant A left: %d violations, want 0", r.Violations)
	}
	overlapping := hist(enter(0, "A"), enter(5, "B"), leave(10, "A"), leave(20, "B"))
	r := MutualExclusion(overlapping)
	if r.Violations != 1 || r.Overlaps[0].Duration != 5*time.Millisecond || r.Overlaps[0].First != "A" || r.Overlaps[0].Second != "B" {
		t.Errorf("A and B inside together for 5 ms: got %+v", r)
	}
	neverLeft := hist(enter(0, "A"), enter(30, "B"), leave(40, "B"))
	if r := MutualExclusion(neverLeft); r.Violations != 1 || r.Overlaps[0].Duration != 10*time.Millisecond {
		t.Errorf("A never left, B stayed 10 ms: got %+v", r)
	}
	otherResource := hist(enter(0, "A"), history.Event{Time: at(5), Client: "B", Kind: history.Entered, Resource: "s"}, leave(10, "A"))
	if r := MutualExclusion(otherResource); r.Violations != 0 {
		t.Errorf("different resources: %d violations, want 0", r.Violations)
	}
	three := hist(enter(0, "A"), enter(1, "B"), enter(2, "C"), leave(10, "A"), leave(10, "B"), leave(10, "C"))
	if r := MutualExclusion(three); r.Violations != 3 {
		t.Errorf("three holders at once: %d violating pairs, want 3", r.Violations)
	}
}

func TestFencing(t *testing.T) {
	increasing := hist(write(0, "A", 1, true), write(5, "B", 2, true), write(9, "C", 7, true))
	if r := Fencing(increasing); r.Violations != 0 || r.StaleAccepted != 0 || r.StaleRejected != 0 {
		t.Errorf("increasing tokens: %+v, want all zero", r)
	}
	backwards := hist(write(0, "B", 2, true), write(5, "A", 1, true))
	if r := Fencing(backwards); r.Violations != 1 || r.StaleAccepted != 1 {
		t.Errorf("token 1 accepted after 2: %+v, want 1 violation", r)
	}
	rejected := hist(write(0, "B", 2, true), write(5, "A", 1, false), write(6, "C", 2, false))
	if r := Fencing(rejected); r.Violations != 0 || r.StaleRejected != 2 {
		t.Errorf("stale tokens rejected: %+v, want 0 violations and 2 rejected", r)
	}
	repeated := hist(write(0, "B", 2, true), write(5, "C", 2, true))
	if r := Fencing(repeated); r.Violations != 0 || r.StaleAccepted != 1 {
		t.Errorf("token 2 accepted twice: %+v, want a stale acceptance and no regression", r)
	}
	perResource := hist(write(0, "B", 2, true), history.Event{Time: at(1), Kind: history.Write, Resource: "s", Fence: 1, HasFence: true, Accepted: true})
	if r := Fencing(perResource); r.Violations != 0 {
		t.Errorf("token 1 on another resource: %+v, want 0", r)
	}
}

func TestTokens(t *testing.T) {
	fenced := func(ms int, client string, fence int64) history.Event {
		e := grant(ms, client, client, ms+100)
		e.Fence, e.HasFence = fence, true
		return e
	}
	if r := Tokens(hist(fenced(0, "A", 10), fenced(5, "B", 11), fenced(9, "C", 12))); r.Reissued != 0 {
		t.Errorf("growing fences: %d reissued, want 0", r.Reissued)
	}
	if r := Tokens(hist(fenced(0, "A", 10), fenced(5, "B", 11), fenced(9, "C", 11), fenced(10, "D", 9))); r.Reissued != 2 {
		t.Errorf("fence 11 twice then 9: %d reissued, want 2", r.Reissued)
	}
}

func TestLostLocks(t *testing.T) {
	held := hist(grant(0, "A", "a", 1000), observe(10, true, "a", 900*time.Millisecond))
	if r := LostLocks(held); r.Lost != 0 {
		t.Errorf("key present with A's token: %d lost, want 0", r.Lost)
	}
	missing := hist(grant(0, "A", "a", 1000), observe(10, false, "", 0))
	if r := LostLocks(missing); r.Lost != 1 {
		t.Errorf("key missing while A believes it: %d lost, want 1", r.Lost)
	}
	stolen := hist(grant(0, "A", "a", 1000), observe(10, true, "b", time.Second), observe(20, false, "", 0))
	if r := LostLocks(stolen); r.Lost != 1 {
		t.Errorf("key owned by b while A believes it: %d lost, want 1 (one lease, counted once)", r.Lost)
	}
	expired := hist(grant(0, "A", "a", 100), observe(150, false, "", 0))
	if r := LostLocks(expired); r.Lost != 0 {
		t.Errorf("missing after A's validity: %d lost, want 0", r.Lost)
	}
	released := hist(grant(0, "A", "a", 1000), release(50, "A", "a"), observe(60, false, "", 0))
	if r := LostLocks(released); r.Lost != 0 {
		t.Errorf("missing after A released: %d lost, want 0", r.Lost)
	}
	extended := hist(grant(0, "A", "a", 100),
		history.Event{Time: at(50), Client: "A", Kind: history.Extended, Key: "k", Token: "a", OK: true, ValidUntil: at(1000)},
		observe(500, false, "", 0))
	if r := LostLocks(extended); r.Lost != 1 {
		t.Errorf("missing after an extension to 1000 ms: %d lost, want 1", r.Lost)
	}
	crashed := hist(grant(0, "A", "a", 1000), history.Event{Time: at(5), Client: "A", Kind: history.Crashed}, observe(10, false, "", 0))
	if r := LostLocks(crashed); r.Lost != 0 {
		t.Errorf("missing after A crashed: %d lost, want 0", r.Lost)
	}
}

func TestOrphans(t *testing.T) {
	crashedMidAcquire := hist(invoke(0, "A"), history.Event{Time: at(1), Client: "A", Kind: history.Crashed}, observe(5000, true, "a", history.NoExpiry))
	if r := Orphans(crashedMidAcquire); r.Orphans != 1 {
		t.Errorf("key without expiry, owner dead: %d orphans, want 1", r.Orphans)
	}
	withTTL := hist(invoke(0, "A"), history.Event{Time: at(1), Client: "A", Kind: history.Crashed}, observe(20, true, "a", 900*time.Millisecond))
	if r := Orphans(withTTL); r.Orphans != 0 {
		t.Errorf("key with a TTL: %d orphans, want 0 (it will expire)", r.Orphans)
	}
	ownerAlive := hist(grant(0, "A", "a", 1000), observe(20, true, "a", history.NoExpiry))
	if r := Orphans(ownerAlive); r.Orphans != 0 {
		t.Errorf("key without expiry, owner holding it: %d orphans, want 0", r.Orphans)
	}
	ownerReleased := hist(grant(0, "A", "a", 1000), release(10, "A", "a"), observe(20, true, "a", history.NoExpiry))
	if r := Orphans(ownerReleased); r.Orphans != 1 {
		t.Errorf("key still there after its release gave up: %d orphans, want 1", r.Orphans)
	}
}

func TestLinearizable(t *testing.T) {
	sequential := hist(invoke(0, "A"), grant(1, "A", "a", 100), enter(2, "A"), invoke(3, "B"),
		history.Event{Time: at(4), Client: "B", Kind: history.AcquireRefused, Key: "k"}, leave(10, "A"), release(11, "A", "a"),
		invoke(13, "B"), grant(14, "B", "b", 100), enter(15, "B"), leave(20, "B"), release(21, "B", "b"))
	if r := Linearizable(sequential, 10*time.Second); r.Result != Linear {
		t.Errorf("sequential holders: %+v, want Ok", r.Result)
	}
	if r := Linearizable(sequential, 10*time.Second); r.Operations != 5 {
		t.Errorf("sequential holders: %d operations, want 5 (2 acquires, 1 refusal, 2 releases)", r.Operations)
	}
	twoHolders := hist(invoke(0, "A"), grant(1, "A", "a", 100), enter(2, "A"),
		invoke(3, "B"), grant(4, "B", "b", 100), enter(5, "B"), leave(10, "A"), release(11, "A", "a"), leave(20, "B"), release(21, "B", "b"))
	r := Linearizable(twoHolders, 10*time.Second)
	if r.Result != NotLinear {
		t.Fatalf("two holders at once: %s, want Illegal", r.Result)
	}
	// The caller draws the page from the report's search record.
	page := filepath.Join(t.TempDir(), "two-holders.html")
	if err := porcupine.VisualizePath(MutexModel, r.Info, page); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "<html") {
		t.Errorf("visualization %s: %v, not an HTML page", page, err)
	}
	neverReleased := hist(invoke(0, "A"), grant(1, "A", "a", 100), enter(2, "A"), invoke(50, "B"), grant(51, "B", "b", 100), enter(52, "B"))
	if r := Linearizable(neverReleased, 10*time.Second); r.Result != NotLinear {
		t.Errorf("B entered while A never left: %s, want Illegal", r.Result)
	}
}

// TestLinearizableTimeout: a search cut short says Unknown, which Judge keeps apart
// from Ok (the lab counts it as linearizability_unknown, never as linearizable).
func TestLinearizableTimeout(t *testing.T) {
	var h history.History
	// Many clients whose attempts all overlap: porcupine must try orders one by one.
	for c := 0; c < 40; c++ {
		id := string(rune('a'+c%26)) + string(rune('A'+c/26))
		h = append(h, invoke(0, id), history.Event{Time: at(1000 + c), Client: id, Kind: history.AcquireRefused, Key: "k"})
	}
	for c := 0; c < 40; c++ {
		id := "g" + string(rune('a'+c%26)) + string(rune('A'+c/26))
		h = append(h, invoke(0, id), grant(2000, id, id, 5000), enter(2000+c, id))
	}
	sort.SliceStable(h, func(i, j int) bool { return h[i].Time.Before(h[j].Time) })
	if r := Judge(h, time.Nanosecond).Linear; r.Result != LinearUnknown {
		t.Errorf("search with a 1 ns budget: %s, want Unknown", r.Result)
	}
}

func TestWrites(t *testing.T) {
	w := func(ms int, client, token, res string, accepted bool) history.Event {
		return history.Event{Time: at(ms), Client: client, Kind: history.Write, Resource: res, Key: "k", Token: token, Fence: 1, HasFence: true, Accepted: accepted}
	}
	// B holds the newest grant and believes it: its refused write is an honest refusal,
	// and r1 refusing while r2 accepts is a divergence.
	regressed := hist(grant(0, "A", "a", 1000), release(10, "A", "a"), grant(20, "B", "b", 1000),
		w(30, "B", "b", "r1", false), w(31, "B", "b", "r2", true))
	if r := Writes(regressed); r.HonestRefused != 1 || r.Diverged != 1 {
		t.Errorf("honest holder refused by r1, accepted by r2: %+v, want 1 honest refused and 1 divergence", r)
	}
	// A's grant was superseded by B's: A's refused write is the fence working.
	stale := hist(grant(0, "A", "a", 100), grant(200, "B", "b", 1000), w(300, "A", "a", "r1", false), w(301, "A", "a", "r2", false))
	if r := Writes(stale); r.HonestRefused != 0 || r.Diverged != 0 {
		t.Errorf("stale holder refused everywhere: %+v, want no harm", r)
	}
	// A write after the writer's own lease ran out is not honest either.
	expired := hist(grant(0, "A", "a", 100), w(150, "A", "a", "r1", false))
	if r := Writes(expired); r.HonestRefused != 0 {
		t.Errorf("write after its lease ended refused: %+v, want 0 honest refused", r)
	}
}

func TestGrants(t *testing.T) {
	if r := Grants(hist(grant(0, "A", "a", 100), grant(10, "A", "a2", 100))); r.Second != 0 {
		t.Errorf("only A granted: %d second grants, want 0", r.Second)
	}
	if r := Grants(hist(grant(0, "A", "a", 100), grant(10, "B", "b", 100), grant(20, "C", "c", 100))); r.Second != 2 {
		t.Errorf("A then B then C: %d second grants, want 2", r.Second)
	}
}

func TestSplitBrain(t *testing.T) {
	probe := func(ms int, node string, ok bool) history.Event {
		return history.Event{Time: at(ms), Client: "observer", Kind: history.ProbeWritten, Node: node, Accepted: ok}
	}
	r := SplitBrain(hist(probe(0, "old", true), probe(20, "old", true), probe(40, "old", false), probe(60, "old", false)))
	if len(r.Windows) != 1 || r.Windows[0].Duration != 20*time.Millisecond || r.Windows[0].StillAccepting {
		t.Errorf("accepted until 20 ms then refused: %+v, want one 20 ms window, closed", r.Windows)
	}
	open := SplitBrain(hist(probe(0, "old", true), probe(50, "old", true)))
	if open.Longest() != 50*time.Millisecond || !open.Windows[0].StillAccepting {
		t.Errorf("accepting to the end: %+v, want a 50 ms window still open", open.Windows)
	}
	if refused := SplitBrain(hist(probe(0, "old", false))); refused.Longest() != 0 {
		t.Errorf("refused at once: %v, want no window", refused.Longest())
	}
}
