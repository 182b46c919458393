package violations

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/plots/plotstest"
	"github.com/lockbench/lockbench/safety/results"
)

const (
	delayAxis = "delay from grant to master kill (ms)"
	lagAxis   = "promoted replica's measured pause end minus master kill (ms, 10 ms buckets, lower edge)"
	lossAxis  = "probability the lock was lost"
)

// probability is a series of K-of-N points, each with its Wilson interval, as the
// lab reports a measured share.
func probability(name, x string, kn ...[3]int) results.Series {
	s := results.Series{Name: name, X: x, Y: lossAxis}
	for _, p := range kn {
		if pt, ok := results.ProbabilityPoint(float64(p[0]), p[1], p[2]); ok {
			s.Points = append(s.Points, pt)
		}
	}
	return s
}

// variant is a variant with judged trials and the overlaps they found.
func variant(name string, judged int, overlapsMs ...float64) *results.Variant {
	v := &results.Variant{Name: name, Measure: results.Violations, Tally: results.Tally{Trials: judged, Judged: judged}}
	for _, o := range overlapsMs {
		v.Tally.Overlap.Add(o)
	}
	return v
}

// failoverReport is a failover-loss run as the lab reports it: two modes against
// delay, one against lag margin, a mode with no judged trial, overlaps where lost.
func failoverReport() *results.Report {
	return &results.Report{
		Scenario: "failover-loss", Seed: 7,
		Series: []results.Series{
			probability("mode=none", delayAxis, [3]int{0, 4, 4}, [3]int{50, 2, 4}, [3]int{150, 0, 4}),
			probability("mode=wait1", delayAxis, [3]int{0, 0, 3}, [3]int{50, 0, 4}, [3]int{150, 0, 4}),
			{Name: "mode=wait2", X: delayAxis, Y: lossAxis}, // every grant refused: no point
			probability("mode=none by lag", lagAxis, [3]int{-20, 0, 5}, [3]int{0, 1, 2}, [3]int{10, 5, 5}),
		},
		Variants: []*results.Variant{
			variant("none-delay-0ms", 4, 1020, 998, 1003, 1011),
			variant("wait1-delay-0ms", 3),
		},
	}
}

// clockReport is a clock scenario: measured shares beside the model's 0-or-1 line,
// which has no interval and no trial count.
func clockReport() *results.Report {
	measured := results.Series{Name: "k=3 measured", X: "jump J (ms)", Y: "probability of two holders"}
	model := results.Series{Name: "k=3 model", X: "jump J (ms)", Y: "1 if the model allows two holders"}
	for i, jump := range []float64{0, 50, 100, 150, 200} {
		pt, _ := results.ProbabilityPoint(jump, []int{0, 0, 3, 10, 10}[i], 10)
		measured.Points = append(measured.Points, pt)
		model.Points = append(model.Points, results.ValuePoint(jump, float64(min(i/2, 1))))
	}
	return &results.Report{Scenario: "redlock-clock-jump", Seed: 2, Series: []results.Series{measured, model}}
}

func pausePastTTLReport() *results.Report {
	return &results.Report{
		Scenario: "pause-past-ttl", Seed: 1,
		Variants: []*results.Variant{
			variant("no-watchdog", 5, 593, 591, 617, 596, 592),
			variant("watchdog", 5, 596, 570, 596),
			variant("watchdog-slow-work", 5),
		},
	}
}

// unsafeReleaseReport has overlaps from under a millisecond to a second: a log axis.
func unsafeReleaseReport() *results.Report {
	return &results.Report{
		Scenario: "unsafe-release", Seed: 3,
		Variants: []*results.Variant{
			variant("plain-del", 3, 0.4, 75, 1000),
			variant("lua-release", 3),
		},
	}
}

func TestSafetyFiguresDrawEachSeriesAndEveryOverlapVariant(t *testing.T) {
	dir := t.TempDir()
	figs, err := WriteSafety(dir, fixtureStores, []*results.Report{failoverReport(), pausePastTTLReport(), unsafeReleaseReport(), clockReport()})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"failover-loss_vs-delay-from-grant-to-master-kill":                        {"mode=none", "mode=wait1"},
		"failover-loss_vs-promoted-replicas-measured-pause-end-minus-master-kill": {"mode=none by lag"},
		"failover-loss_overlap":        {dotLabel, boxLabel},
		"pause-past-ttl_overlap":       {dotLabel, boxLabel},
		"unsafe-release_overlap":       {dotLabel, boxLabel},
		"redlock-clock-jump_vs-jump-j": {"k=3 measured", "k=3 model"},
	}
	if len(figs) != len(want) {
		t.Errorf("figures %v, want %d", plotstest.Names(figs), len(want))
	}
	for _, f := range figs {
		series, ok := want[f.Name]
		if !ok {
			t.Errorf("unexpected figure %s", f.Name)
			continue
		}
		if strings.Join(f.Series, ",") != strings.Join(series, ",") {
			t.Errorf("%s: series %v, want %v", f.Name, f.Series, series)
		}
		if len(f.Files) != 2 || f.Files[0] != "figures/"+f.Name+".png" || f.Files[1] != "figures/"+f.Name+".svg" {
			t.Fatalf("%s: files %v, want its PNG then its SVG", f.Name, f.Files)
		}
		checkPNG(t, filepath.Join(dir, f.Files[0]))
		texts := plotstest.SVGTexts(t, filepath.Join(dir, f.Files[1]))
		for _, s := range series {
			if n := count(texts, s); n != 1 {
				t.Errorf("%s: legend entry %q drawn %d times, want once", f.Files[1], s, n)
			}
		}
		if f.Caption == "" {
			t.Errorf("%s has no caption", f.Name)
		}
		// A variant that held keeps its row, so the figure shows the fix beside the break.
		if f.Name == "pause-past-ttl_overlap" && !strings.Contains(strings.Join(texts, " "), "watchdog-slow-work no overlap in 5 judged trials") {
			t.Errorf("%s: no row for the variant without overlap; texts %q", f.Files[1], texts)
		}
	}
}

func TestSafetySeriesShowTrialsPerPoint(t *testing.T) {
	dir := t.TempDir()
	figs, err := WriteSafety(dir, fixtureStores, []*results.Report{failoverReport()})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]plots.Figure{}
	for _, f := range figs {
		byName[f.Name] = f
	}
	// Five points of 4 trials and one of 3: the title says 4, the odd point says 3.
	delay := byName["failover-loss_vs-delay-from-grant-to-master-kill"]
	texts := plotstest.SVGTexts(t, filepath.Join(dir, delay.Files[1]))
	if count(texts, "n=3") != 1 || count(texts, "n=4") != 0 || !strings.Contains(strings.Join(texts, " "), "(4 judged trials per point unless labelled;") {
		t.Errorf("delay figure: n=3 drawn %d times (want 1), n=4 %d (want 0); texts %q", count(texts, "n=3"), count(texts, "n=4"), texts)
	}
	if !strings.Contains(delay.Caption, "mode=wait1 3, 4, 4") {
		t.Errorf("caption %q does not list judged trials per point", delay.Caption)
	}
	// One count for every point: it is said once, in the title, and nothing says "unless".
	rep := failoverReport()
	rep.Series = rep.Series[:1]
	figs, err = WriteSafety(dir, fixtureStores, []*results.Report{rep})
	if err != nil {
		t.Fatal(err)
	}
	texts = plotstest.SVGTexts(t, filepath.Join(dir, figs[0].Files[1]))
	if count(texts, "n=4") != 0 || !strings.Contains(strings.Join(texts, " "), "(4 judged trials per point;") || containsText(texts, "unless") {
		t.Errorf("uniform counts: want the count in the title only, got texts %q", texts)
	}
}

func TestSafetyFiguresAreTheSameBytesOnRerender(t *testing.T) {
	reports := []*results.Report{failoverReport(), pausePastTTLReport(), clockReport()}
	plotstest.AssertSameBytes(t, func() ([]plots.Drawn, error) { return buildSafety(fixtureStores, reports) })
}

func TestSafetyFiguresAreSkippedWithoutData(t *testing.T) {
	dir := t.TempDir()
	noData := []*results.Report{
		{Scenario: "setnx-expire", Variants: []*results.Variant{variant("setnx-then-expire", 5)}},
		{Scenario: "failover-loss", Series: []results.Series{{Name: "mode=wait2", X: delayAxis, Y: lossAxis}}},
		nil,
	}
	figs, err := WriteSafety(dir, fixtureStores, noData)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 0 {
		t.Errorf("drew %v from reports with no points and no overlaps", plotstest.Names(figs))
	}
	if _, err := os.Stat(filepath.Join(dir, plots.Dir)); !os.IsNotExist(err) {
		t.Errorf("figures folder exists with nothing to show: %v", err)
	}
}

func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Errorf("%s: not a PNG: %v", path, err)
	} else if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 200 {
		t.Errorf("%s: %dx%d is too small to read", path, b.Dx(), b.Dy())
	}
}

func count(texts []string, s string) int {
	n := 0
	for _, t := range texts {
		if t == s {
			n++
		}
	}
	return n
}

func containsText(texts []string, sub string) bool {
	for _, t := range texts {
		if strings.Contains(t, sub) {
			return true
		}
	}
	return false
}

func TestSafetySeriesDrawIntervalBarsOnMeasuredPointsOnly(t *testing.T) {
	rep := clockReport()
	bars, err := intervalBars(rep.Series, plots.NewStyles(fixtureStores, seriesStyleKeys(rep.Series)))
	if err != nil {
		t.Fatal(err)
	}
	// The model's values have no interval: only the measured series gets bars.
	if len(bars) != 1 || len(bars[0].XYs) != len(rep.Series[0].Points) {
		t.Fatalf("bars %+v, want one set with a bar per measured point", bars)
	}
	for i, pt := range rep.Series[0].Points {
		b := bars[0]
		lo, hi := b.XYs[i].Y-b.YErrors[i].Low, b.XYs[i].Y+b.YErrors[i].High
		if b.XYs[i].X != pt.X || math.Abs(lo-pt.Lo) > 1e-12 || math.Abs(hi-pt.Hi) > 1e-12 || lo == hi {
			t.Errorf("bar at %v spans %v-%v, want the interval %v-%v", b.XYs[i].X, lo, hi, pt.Lo, pt.Hi)
		}
	}
	// Two series at the same x: their bars stand apart, around the true x.
	fail := failoverReport()
	bars, err = intervalBars(fail.Series[:2], plots.NewStyles(fixtureStores, seriesStyleKeys(fail.Series)))
	if err != nil {
		t.Fatal(err)
	}
	if len(bars) != 2 || bars[0].dx >= 0 || bars[1].dx != -bars[0].dx {
		t.Errorf("bars of two series sharing x: offsets %v, want one each side", bars)
	}
	// The figure says what the bars are.
	dir := t.TempDir()
	figs, err := WriteSafety(dir, fixtureStores, []*results.Report{rep})
	if err != nil {
		t.Fatal(err)
	}
	texts := strings.Join(plotstest.SVGTexts(t, filepath.Join(dir, figs[0].Files[1])), " ")
	if !strings.Contains(texts, "95% Wilson intervals over the judged trials") || !strings.Contains(figs[0].Caption, "95% Wilson intervals over the judged trials") {
		t.Errorf("title %q or caption %q does not say what the bars are", texts, figs[0].Caption)
	}
	if strings.Contains(texts, "n=1") || strings.Contains(figs[0].Caption, "k=3 model") {
		t.Errorf("the model's values were counted as judged trials: title %q, caption %q", texts, figs[0].Caption)
	}
}
