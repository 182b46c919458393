package report

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/results"
)

func updateCell(strategy, guard string, clients, rows int, p50 time.Duration, rate float64) resultsdir.Cell {
	return resultsdir.Cell{Name: strategy + "/" + guard, Strategy: strategy, Guard: guard, Clients: clients, Keys: rows,
		Workload: resultsdir.WorkloadUpdate, Update: &resultsdir.UpdateStats{UpdatesPerSecond: rate},
		Latency: map[string]resultsdir.Summary{resultsdir.MetricUpdate: {P50: resultsdir.Duration(p50)}}}
}

func lostVariant(brk, strategy, fence, guard string, judged, losing, lost int, more ...any) *results.Variant {
	sums := map[results.Measure]int{results.LostUpdates: lost}
	for i := 0; i+1 < len(more); i += 2 {
		sums[more[i].(results.Measure)] = more[i+1].(int)
	}
	return &results.Variant{Name: brk + "/" + strategy + "/" + fence + "/" + guard,
		Params: map[string]string{"break": brk, "strategy": strategy, "fence": fence, "guard": guard},
		Tally: results.Tally{Judged: judged, Trials: judged,
			Broke: map[results.Measure]int{results.LostUpdates: losing}, Sums: sums}}
}

func TestDataCorrectnessJoinsCostAndLossAndReadsThem(t *testing.T) {
	cells := []resultsdir.Cell{
		updateCell("single", "fenced", 8, 1, 400*time.Microsecond, 1800),
		updateCell("single", "fenced", 64, 64, time.Millisecond, 9000), // not the quoted load
		updateCell("single", "read-modify-write", 8, 1, 450*time.Microsecond, 1700),
		updateCell("cas-version", "", 8, 1, 3*time.Millisecond, 700),
	}
	reports := []*results.Report{{Scenario: LostUpdatesScenario, Variants: []*results.Variant{
		lostVariant("pause", "single", "lock", "fenced", 10, 0, 0),
		lostVariant("clock-jump", "single", "lock", "fenced", 10, 0, 0),
		lostVariant("failover", "sentinel", "lock", "fenced", 10, 7, 7),
		lostVariant("failover", "sentinel", "pg-sequence", "fenced", 10, 0, 0),
		lostVariant("pause", "single", "lock", "read-modify-write", 10, 10, 10),
		lostVariant("pause", "single", "lock", "unfenced", 10, 0, 0, results.StaleApplied, 10),
		lostVariant("pause", "cas-version", "none", "", 10, 0, 0),
		lostVariant("redelivery", "atomic", "none", "", 10, 0, 0, results.Duplicates, 10),
	}}}
	ways := JoinWays(cells, reports)
	byKey := map[string]*Way{}
	for _, w := range ways {
		byKey[w.Key()] = w
	}
	fenced := byKey["single+fenced"]
	if fenced == nil || fenced.Faults != 20 || fenced.Lost != 0 || fenced.Cost == nil || fenced.Cost.Clients != 8 || len(fenced.Breaks) != 2 {
		t.Fatalf("single+fenced joined as %+v", fenced)
	}
	if w := byKey["sentinel+fenced (pg-sequence fence)"]; w == nil || w.Faults != 10 || w.Cost != nil {
		t.Errorf("the pg-sequence fence is a way of its own, with no cost cell: %+v", w)
	}
	if w := byKey["sentinel+fenced"]; w == nil || w.Lost != 7 || w.LostPer1000() != 700 {
		t.Errorf("sentinel+fenced: %+v", w)
	}

	var b strings.Builder
	writeDataCorrectness(&b, fixtureStores, ways, "figures/x.png")
	md := b.String()
	reading := md[strings.Index(md, "**Reading**"):]
	bullet := func(label string) string {
		i := strings.Index(reading, "- "+label+": ")
		if i < 0 {
			t.Fatalf("no bullet for %s:\n%s", label, reading)
		}
		return reading[i : i+strings.Index(reading[i:], "\n")]
	}
	if got := bullet("`fenced`"); !strings.Contains(got, "correct with single (0 in 20: pause, clock-jump), sentinel + pg-sequence fence (0 in 10: failover); not with sentinel (7 lost in 10)") {
		t.Errorf("fenced: %s", got)
	}
	if got := bullet("`read-modify-write`"); !strings.Contains(got, "not with single (10 lost in 10)") || strings.Contains(got, "correct with") {
		t.Errorf("read-modify-write: %s", got)
	}
	// Nothing lost, but the stale holder's change went through: not correct.
	if got := bullet("`unfenced`"); !strings.Contains(got, "not with single (10 stale applied in 10)") || strings.Contains(got, "correct with") {
		t.Errorf("unfenced: %s", got)
	}
	if got := bullet("no lock (lock-free strategies)"); !strings.Contains(got, "correct with cas-version (0 in 10: pause)") || !strings.Contains(got, "not with atomic (10 applied twice in 10)") {
		t.Errorf("lock-free: %s", got)
	}
	so := reading[strings.Index(reading, "So a lock used for correctness"):]
	so = so[:strings.Index(so, ";")]
	if !strings.Contains(so, "`single+fenced`, `sentinel+fenced (pg-sequence fence)`") || strings.Contains(so, "`sentinel+fenced`,") || strings.Contains(so, "unfenced") {
		t.Errorf("the correctness sentence names the wrong ways: %s", so)
	}
	for _, want := range []string{"| lock |", "| none |", "**7 lost** in 10 faults", "0 lost in 20 faults", "400µs p50", "![cost per correct update"} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	if regexp.MustCompile(`(?i)\bsafe\b`).MatchString(md) {
		t.Errorf("the section must never call a way safe:\n%s", md)
	}
}
