package ttl

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// TestPauseBoundary runs boundary mode on one Redis: a stop of 0.8 x the lease left
// (after 1 s of work in a 6 s lease: windows of 1 s either side; at 3 s, 400 ms, load 48
// left B ungranted before A wrote) leaves one holder, one of 1.2 x gives two; labtest
// holds each variant to its claims and checks every judged trial carries its proof.
func TestPauseBoundary(t *testing.T) {
	t.Parallel()
	rep := labtest.RunScenario(t, "pause-past-ttl", 1, lab.Params{"strategies": "single", "mode": "boundary", "ttl": "6s",
		"pause-at": "1s"})
	sides := map[string]bool{}
	for _, v := range rep.Variants {
		sides[v.Params["side"]] = true
		for _, tr := range v.Trials {
			if tr.Outcome == results.Judged && tr.Inputs["away_ms"] == 0 {
				t.Errorf("%s trial %d: judged with no measured time away", v.Name, tr.N)
			}
		}
	}
	if len(rep.Variants) != 2 || !sides["below"] || !sides["above"] {
		t.Errorf("variants %d, sides %v: want one below and one above the lease's end", len(rep.Variants), sides)
	}
}

// proveAt judges a hand-written trial of size v: A entered at 0 and wrote after away,
// its lease leaving left.
func proveAt(t *testing.T, v *stopSize, away, left, pause time.Duration) results.Trial {
	t.Helper()
	env := &lab.Env{Trials: 1, Seed: 1}
	rv := &results.Variant{Name: "hand", Measure: results.Violations}
	err := env.RunTrial(context.Background(), "pause-past-ttl", rv, 0, func(_ context.Context, tr *lab.Trial) error {
		at := time.Unix(1000, 0)
		tr.Rec.Record(history.Event{Time: at, Client: "A", Kind: history.Entered, Resource: "resource"})
		tr.Rec.Record(history.Event{Time: at.Add(away), Client: "A", Kind: history.Write, Resource: "resource"})
		return v.prove(tr, locks.Lease{Start: at, ValidUntil: at.Add(left)}, pause)
	})
	if err != nil {
		t.Fatal(err)
	}
	return rv.Trials[0]
}

// A boundary trial is judged only on the side it is for, and only once A was away
// for its whole stop.
func TestPauseBoundaryProof(t *testing.T) {
	t.Parallel()
	below, above := &stopSize{"below", 0.8, 0}, &stopSize{"above", 1.2, 0}
	ms := time.Millisecond
	for _, c := range []struct {
		name              string
		v                 *stopSize
		away, left, pause time.Duration
		want              results.Outcome
	}{
		{"below, back inside the lease", below, 240 * ms, 300 * ms, 240 * ms, results.Judged},
		{"below, overran the lease", below, 310 * ms, 300 * ms, 240 * ms, results.FaultNotProduced},
		{"above, back past the lease", above, 360 * ms, 300 * ms, 360 * ms, results.Judged},
		{"above, back inside the lease", above, 290 * ms, 300 * ms, 280 * ms, results.FaultNotProduced},
		{"stop shorter than asked", above, 200 * ms, 150 * ms, 360 * ms, results.FaultNotProduced},
	} {
		tr := proveAt(t, c.v, c.away, c.left, c.pause)
		if tr.Outcome != c.want {
			t.Errorf("%s: outcome %s (%s), want %s", c.name, tr.Outcome, tr.Message, c.want)
		}
	}
}

// Bad boundary params are refused before anything starts.
func TestPauseBoundaryRefusesBadParams(t *testing.T) {
	t.Parallel()
	s, _ := lab.Lookup("pause-past-ttl")
	for _, params := range []lab.Params{{"mode": "edge"}, {"boundary-factors": "0.8,1"}, {"mode": "boundary", "ttl": "300ms", "pause-at": "300ms"}} {
		env := &lab.Env{Trials: 1, Params: params, Start: func(context.Context, backend.Spec) (topologies.Topology, error) {
			t.Errorf("%v started a topology", params)
			return nil, errors.New("no servers in this test")
		}}
		_, err := lab.Run(context.Background(), s, env)
		var pe *lab.ParamError
		if !errors.As(err, &pe) {
			t.Errorf("%v: %v, want a *ParamError", params, err)
		}
	}
}

// cluster-wait runs as the others do: its fenced form (cluster-fenced's numbered grant,
// then WAIT) is the locker every variant's clients use, so both sides of the boundary
// are judged; before it had one, every trial failed to start and the boundary was
// checked on one strategy fewer. Its lease is 6 s (windows of a second either side): at
// 3 s, in a fresh-clone CI, B's grants, each waiting up to 100 ms for the replica, missed
// the 282 ms between A's lease's end and its write, and a late replica refused A's first
// grant (A now asks again, as it does past any lateness).
func TestPauseBoundaryOnClusterWait(t *testing.T) {
	t.Parallel()
	rep := labtest.RunScenario(t, "pause-past-ttl", 1, lab.Params{"strategies": "cluster-wait", "mode": "boundary", "ttl": "6s", "pause-at": "1s"})
	if len(rep.Variants) != 2 {
		t.Fatalf("variants %d, want both sides", len(rep.Variants))
	}
	for _, v := range rep.Variants {
		if v.Tally.Judged != 1 {
			t.Errorf("%s: %d judged of %d (errors %s): want its trial judged", v.Name, v.Tally.Judged, v.Tally.Trials, v.Tally.ErrorsString())
		}
	}
}

// An above-boundary trial whose B never got in is not judged: its "every" claims ask for
// two holders, and a B late on a busy machine shows nothing of the boundary. Below the
// boundary a B kept out is the expected answer.
func TestAboveBoundaryTrialNeedsBGranted(t *testing.T) {
	above, below := &stopSize{side: "above"}, &stopSize{side: "below"}
	if err := above.bTookIt(false); err == nil || !strings.HasPrefix(err.Error(), "fault not produced: ") {
		t.Errorf("above, B never granted: %v, want fault_not_produced", err)
	}
	if err := above.bTookIt(true); err != nil {
		t.Errorf("above, B granted: %v, want judged", err)
	}
	if err := below.bTookIt(false); err != nil {
		t.Errorf("below, B kept out: %v, want judged", err)
	}
}

// B counts as inside only if its entry at the resource came before A's first write: a
// grant that entered after it (seen under load) overlaps nothing.
func TestBInsideOnlyIfItEnteredBeforeAWrote(t *testing.T) {
	at := func(ms int) time.Time { return time.Unix(0, 0).Add(time.Duration(ms) * time.Millisecond) }
	ev := func(client string, kind history.Kind, ms int) history.Event {
		return history.Event{Client: client, Kind: kind, Resource: "resource", Time: at(ms)}
	}
	for _, c := range []struct {
		name   string
		events []history.Event
		want   bool
	}{
		{"B in before A's write", []history.Event{ev("A", history.Entered, 0), ev("B", history.Entered, 10), ev("A", history.Write, 20)}, true},
		{"B in after A's write", []history.Event{ev("A", history.Entered, 0), ev("A", history.Write, 20), ev("B", history.Entered, 30)}, false},
		{"B never in", []history.Event{ev("A", history.Entered, 0), ev("A", history.Write, 20)}, false},
	} {
		if got := enteredBeforeWrite(c.events, "B"); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
