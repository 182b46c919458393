package runs

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
)

// TestSummaryPrintsTheFloorBesideTheWait: a run with a queueing floor gains a column,
// "unbounded" where a key saturates, "-" for a cell the model does not describe.
func TestSummaryPrintsTheFloorBesideTheWait(t *testing.T) {
	ms := resultsdir.Duration(time.Millisecond)
	cell := func(keyDist string, f *resultsdir.QueueFloor) resultsdir.Cell {
		return resultsdir.Cell{Strategy: "single", Clients: 8, Keys: 100, KeyDist: keyDist, Granted: 10,
			Load: resultsdir.LoadMode{Mode: "open", TargetRate: 200}, Floor: f,
			Latency: map[string]resultsdir.Summary{resultsdir.MetricAcquire: {Count: 10, P99: 3 * ms}}}
	}
	run := &resultsdir.Run{Cells: []resultsdir.Cell{
		cell("zipf:1", &resultsdir.QueueFloor{Wait: map[string]resultsdir.Duration{"p99": 2 * ms}}),
		cell("zipf:1.2", &resultsdir.QueueFloor{Wait: map[string]resultsdir.Duration{}, Unbounded: []string{"p99"}}),
		cell("", nil),
	}}
	var out strings.Builder
	WriteSummary(&out, run)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], "floor p99") {
		t.Fatalf("summary:\n%s", out.String())
	}
	for i, want := range []string{"100 zipf:1 .* 3ms +2ms ", "100 zipf:1.2 .* 3ms +unbounded ", " 100 .* 3ms +- "} {
		if !regexpMatch(want, lines[i+1]) {
			t.Errorf("row %d: %q does not match %q", i+1, lines[i+1], want)
		}
	}
	out.Reset()
	WriteSummary(&out, &resultsdir.Run{Cells: []resultsdir.Cell{cell("", nil)}})
	if strings.Contains(out.String(), "floor") {
		t.Errorf("a run without a floor printed its column:\n%s", out.String())
	}
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }
