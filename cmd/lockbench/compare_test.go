package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/report/synth"
	"github.com/lockbench/lockbench/resultsdir"
)

func synthFolder(t *testing.T, o synth.Options) string {
	t.Helper()
	dir := t.TempDir()
	o.Small, o.Stationary = true, true
	if _, err := synth.Write(dir, o); err != nil {
		t.Fatal(err)
	}
	return dir
}

func compareCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errs bytes.Buffer
	code = run(append([]string{"compare"}, args...), nil, &out, &errs)
	return code, out.String(), errs.String()
}

func TestCompareIdenticalFoldersIsUnchanged(t *testing.T) {
	t.Parallel()
	dir := synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: 1, NoHistograms: true})
	code, stdout, stderr := compareCLI(t, dir, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "\nunchanged: all") || strings.Contains(stdout, "  worse") {
		t.Errorf("identical folders not called unchanged:\n%s", stdout)
	}
}

func TestCompareOfTheSameSourceTwicePasses(t *testing.T) {
	t.Parallel()
	a := synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: 1, NoHistograms: true})
	b := synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: 2, NoHistograms: true})
	code, stdout, stderr := compareCLI(t, a, b)
	if code != 0 {
		t.Errorf("exit %d for two runs of one source (%s):\n%s", code, stderr, stdout)
	}
	if !strings.Contains(stdout, "~ (p=") || !strings.Contains(stdout, "not\nindependent samples") {
		t.Errorf("output lacks ~ verdicts or the note on intervals:\n%s", stdout)
	}
}

func TestCompareFailsOnASlowdownBeyondTheThreshold(t *testing.T) {
	t.Parallel()
	old := synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: 1, NoHistograms: true})
	slow := synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: 2, Slowdown: 2, NoHistograms: true})
	code, stdout, stderr := compareCLI(t, old, slow)
	if code != 1 || !strings.Contains(stderr, "significantly worse by 5% or more") {
		t.Errorf("exit %d, stderr %q; want 1 naming the regression", code, stderr)
	}
	if !strings.Contains(stdout, "+100.") || !strings.Contains(stdout, "worse, by 5% or more") {
		t.Errorf("a 2x slowdown is not shown as a regression:\n%s", stdout)
	}
	// The same slowdown under a threshold it does not reach is reported, and passes.
	if code, stdout, _ := compareCLI(t, "--threshold", "1000%", old, slow); code != 0 || !strings.Contains(stdout, "worse") {
		t.Errorf("--threshold 1000%%: exit %d, want 0 with the change still shown worse:\n%s", code, stdout)
	}
}

func TestCompareOnOneRunASideSaysWhatItCannotSee(t *testing.T) {
	t.Parallel()
	old := synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: 1, NoHistograms: true})
	slow := synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: 2, Slowdown: 1.2, NoHistograms: true})
	// 20% slower everywhere: clear in the intervals, but within the 50% allowance for
	// the run-to-run noise one run a side cannot measure.
	code, stdout, stderr := compareCLI(t, old, slow)
	if code != 0 || !strings.Contains(stdout, "within-run intervals only: run-to-run noise not measured") ||
		!strings.Contains(stdout, "worse, within the run-to-run allowance of 50%") {
		t.Errorf("exit %d (%s), want 0 with the worsening shown within the allowance:\n%s", code, stderr, stdout)
	}
	for correction, args := range map[string][]string{"holm": {"--run-allowance", "10%"}, "bh": {"--run-allowance", "10%", "--correction", "bh"}} {
		code, stdout, stderr := compareCLI(t, append(args, old, slow)...)
		if code != 1 || !strings.Contains(stderr, "("+correction+" over 90 figures)") {
			t.Errorf("%v: exit %d, stderr %q; want 1 for 20%% slower beyond a 10%% allowance, naming %s:\n%s", args, code, stderr, correction, stdout)
		}
	}
}

func TestCompareTreatsCommaListsAsRepeats(t *testing.T) {
	t.Parallel()
	var old, slow []string
	for seed := uint64(1); seed <= 8; seed++ { // 8+8 repeats reach 0.05 over 90 figures
		old = append(old, synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: seed, NoHistograms: true}))
		slow = append(slow, synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: seed + 100, Slowdown: 2, NoHistograms: true}))
	}
	code, stdout, stderr := compareCLI(t, strings.Join(old, ","), strings.Join(slow, ","))
	if code != 1 {
		t.Fatalf("exit %d, want 1 for a 2x slowdown: %s", code, stderr)
	}
	rows, tested := 0, 0
	inP50 := false
	for _, line := range strings.Split(stdout, "\n") {
		switch {
		case line == "acquire p50":
			inP50 = true
		case line == "":
			inP50 = false
		case inP50 && strings.HasPrefix(line, "strategy="):
			rows++
			if strings.Contains(line, "n=8+8)") && strings.Contains(line, "worse") {
				tested++
			}
		}
	}
	if rows == 0 || tested != rows || !strings.Contains(stdout, "repeats of the cell") {
		t.Errorf("%d of %d p50 rows tested as eight repeats a side and found worse:\n%s", tested, rows, stdout)
	}
}

func TestCompareRegroupsIntervals(t *testing.T) {
	t.Parallel()
	a := synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: 1, Samples: 500})
	b := synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: 2, Samples: 500})
	code, stdout, stderr := compareCLI(t, "--intervals", "5", a, b)
	if code != 0 && code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "n=5+5)") || strings.Contains(stdout, "n=10+10") {
		t.Errorf("--intervals 5 did not make five samples a side:\n%s", stdout)
	}
}

func TestCompareRefusesBadInputWithExit2(t *testing.T) {
	t.Parallel()
	good := synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: 1})
	oneCell := synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: 1})
	noIntervals := synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: 1, NoIntervals: true})
	disjoint := synthFolder(t, synth.Options{Stores: linked.Catalog(), Seed: 1, NoHistograms: true})
	renameCells(t, disjoint)
	for want, args := range map[string][]string{
		"want OLD and NEW":                          {good},
		"not a lockbench results folder":            {good, t.TempDir()},
		`--threshold "lots"`:                        {"--threshold", "lots", good, good},
		"--alpha 0: want a p-value between 0 and 1": {"--alpha", "0", good, good},
		"--alpha 1: want a p-value between 0 and 1": {"--alpha", "1", good, good},
		"--intervals 1: want at least 2":            {"--intervals", "1", good, good},
		`--correction "none": want holm`:            {"--correction", "none", good, good},
		`--run-allowance "-5%"`:                     {"--run-allowance", "-5%", good, good},
		"--intervals 20: ":                          {"--intervals", "20", good, oneCell},
		"recorded only 10 intervals, fewer than 20": {"--intervals", "20", good, oneCell},
		"recorded no intervals":                     {"--intervals", "5", noIntervals, good},
		"have no cell in common":                    {good, disjoint},
	} {
		code, _, stderr := compareCLI(t, args...)
		if code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("%q: exit %d, stderr %q; want %d naming %q", args, code, stderr, exitUsage, want)
		}
	}
}

// renameCells gives every cell of the results folder dir a name no other run has.
func renameCells(t *testing.T, dir string) {
	t.Helper()
	run, err := resultsdir.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range run.Cells {
		run.Cells[i].Name += "/renamed"
	}
	if err := resultsdir.WriteRun(dir, run); err != nil {
		t.Fatal(err)
	}
}
