package plots

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	delayAxis = "delay from grant to master kill (ms)"
	lagAxis   = "promoted replica's measured pause end minus master kill (ms, 10 ms buckets, lower edge)"
	lossAxis  = "probability the lock was lost"
)

// failoverReport is a failover-loss run as the lab reports it: two modes against
// delay, one against lag margin, a mode with no judged trial, overlaps where lost.
func failoverReport() SafetyReport {
	return SafetyReport{
		Scenario: "failover-loss", Seed: 7,
		Series: []SafetySeries{
			{Name: "mode=none", X: delayAxis, Y: lossAxis, Points: []SafetyPoint{{0, 1, 4}, {50, 0.5, 4}, {150, 0, 4}}},
			{Name: "mode=wait1", X: delayAxis, Y: lossAxis, Points: []SafetyPoint{{0, 0, 3}, {50, 0, 4}, {150, 0, 4}}},
			{Name: "mode=wait2", X: delayAxis, Y: lossAxis}, // every grant refused: no point
			{Name: "mode=none by lag", X: lagAxis, Y: lossAxis, Points: []SafetyPoint{{-20, 0, 5}, {0, 0.5, 2}, {10, 1, 5}}},
		},
		Variants: []SafetyVariant{
			{Name: "none-delay-0ms", Judged: 4, OverlapMs: []float64{1020, 998, 1003, 1011}},
			{Name: "wait1-delay-0ms", Judged: 3},
		},
	}
}

func pausePastTTLReport() SafetyReport {
	return SafetyReport{
		Scenario: "pause-past-ttl", Seed: 1,
		Variants: []SafetyVariant{
			{Name: "no-watchdog", Judged: 5, OverlapMs: []float64{593, 591, 617, 596, 592}},
			{Name: "watchdog", Judged: 5, OverlapMs: []float64{596, 570, 596}},
			{Name: "watchdog-slow-work", Judged: 5},
		},
	}
}

// unsafeReleaseReport has overlaps from under a millisecond to a second: a log axis.
func unsafeReleaseReport() SafetyReport {
	return SafetyReport{
		Scenario: "unsafe-release", Seed: 3,
		Variants: []SafetyVariant{
			{Name: "plain-del", Judged: 3, OverlapMs: []float64{0.4, 75, 1000}},
			{Name: "lua-release", Judged: 3},
		},
	}
}

func TestSafetyFiguresDrawEachSeriesAndEveryOverlapVariant(t *testing.T) {
	dir := t.TempDir()
	figs, err := WriteSafety(dir, []SafetyReport{failoverReport(), pausePastTTLReport(), unsafeReleaseReport()})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"failover-loss_vs-delay-from-grant-to-master-kill":                        {"mode=none", "mode=wait1"},
		"failover-loss_vs-promoted-replicas-measured-pause-end-minus-master-kill": {"mode=none by lag"},
		"failover-loss_overlap":  {dotLabel, boxLabel},
		"pause-past-ttl_overlap": {dotLabel, boxLabel},
		"unsafe-release_overlap": {dotLabel, boxLabel},
	}
	if len(figs) != len(want) {
		t.Errorf("figures %v, want %d", names(figs), len(want))
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
		texts := svgTexts(t, filepath.Join(dir, f.Files[1]))
		for _, s := range series {
			if n := count(texts, s); n != 1 {
				t.Errorf("%s: legend entry %q drawn %d times, want once", f.Files[1], s, n)
			}
		}
		if f.Caption == "" {
			t.Errorf("%s has no caption", f.Name)
		}
		// A variant that held keeps its row, so the figure shows the fix beside the break.
		if f.Name == "pause-past-ttl_overlap" && !containsText(texts, "watchdog-slow-work (no overlap, 5 trials)") {
			t.Errorf("%s: no row for the variant without overlap; texts %q", f.Files[1], texts)
		}
	}
}

func TestSafetySeriesShowTrialsPerPoint(t *testing.T) {
	dir := t.TempDir()
	figs, err := WriteSafety(dir, []SafetyReport{failoverReport()})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Figure{}
	for _, f := range figs {
		byName[f.Name] = f
	}
	// Five points of 4 trials and one of 3: the title says 4, the odd point says 3.
	delay := byName["failover-loss_vs-delay-from-grant-to-master-kill"]
	texts := svgTexts(t, filepath.Join(dir, delay.Files[1]))
	if count(texts, "n=3") != 1 || count(texts, "n=4") != 0 || !containsText(texts, "(4 judged trials per point unless labelled)") {
		t.Errorf("delay figure: n=3 drawn %d times (want 1), n=4 %d (want 0); texts %q", count(texts, "n=3"), count(texts, "n=4"), texts)
	}
	if !strings.Contains(delay.Caption, "mode=wait1 3, 4, 4") {
		t.Errorf("caption %q does not list judged trials per point", delay.Caption)
	}
	// One count for every point: it is said once, in the title, and nothing says "unless".
	rep := failoverReport()
	rep.Series = rep.Series[:1]
	figs, err = WriteSafety(dir, []SafetyReport{rep})
	if err != nil {
		t.Fatal(err)
	}
	texts = svgTexts(t, filepath.Join(dir, figs[0].Files[1]))
	if count(texts, "n=4") != 0 || !containsText(texts, "(4 judged trials per point)") || containsText(texts, "unless") {
		t.Errorf("uniform counts: want the count in the title only, got texts %q", texts)
	}
}

func TestSafetyFiguresAreTheSameBytesOnRerender(t *testing.T) {
	reports := []SafetyReport{failoverReport(), pausePastTTLReport()}
	_, first, err := renderSafety(reports)
	if err != nil {
		t.Fatal(err)
	}
	_, second, err := renderSafety(reports)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) == 0 || len(first) != len(second) {
		t.Fatalf("rendered %d then %d files", len(first), len(second))
	}
	for i := range first {
		if first[i].path != second[i].path || !bytes.Equal(first[i].data, second[i].data) {
			t.Errorf("%s differs between two renderings of the same results", first[i].path)
		}
	}
}

func TestSafetyFiguresAreSkippedWithoutData(t *testing.T) {
	dir := t.TempDir()
	noData := []SafetyReport{
		{Scenario: "setnx-expire", Variants: []SafetyVariant{{Name: "setnx-then-expire", Judged: 5}}},
		{Scenario: "failover-loss", Series: []SafetySeries{{Name: "mode=wait2", X: delayAxis, Y: lossAxis}}},
	}
	figs, err := WriteSafety(dir, noData)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 0 {
		t.Errorf("drew %v from reports with no points and no overlaps", names(figs))
	}
	if _, err := os.Stat(filepath.Join(dir, Dir)); !os.IsNotExist(err) {
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
