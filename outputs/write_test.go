package outputs

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/internal/golden"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/report"
	"github.com/lockbench/lockbench/report/synth"
	"github.com/lockbench/lockbench/resultsdir"
)

var update = flag.Bool("update", false, "rewrite testdata/sample and testdata/sample.report.md")

const (
	sampleDir    = "testdata/sample"
	goldenReport = "testdata/sample.report.md"
)

func TestReportOfSampleMatchesGolden(t *testing.T) {
	if *update {
		os.RemoveAll(sampleDir)
		if _, err := synth.Write(sampleDir, synth.Options{Stores: fixtureStores, Seed: 42, Small: true, Samples: 1000}); err != nil {
			t.Fatal(err)
		}
	}
	dir := golden.Copy(t, sampleDir)
	slo, err := report.ParseSLO("p99=5ms")
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, report.Options{Stores: fixtureStores, SLO: &slo}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, report.File))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, goldenReport, string(got), *update, "outputs")
	// Every figure the report embeds exists next to it.
	for _, line := range strings.Split(string(got), "\n") {
		if strings.HasPrefix(line, "![") {
			rel := line[strings.Index(line, "(")+1 : len(line)-1]
			if _, err := os.Stat(filepath.Join(dir, rel)); err != nil {
				t.Errorf("report embeds %s: %v", rel, err)
			}
		}
	}
}

func TestBadInputIsNamedAndNothingIsWritten(t *testing.T) {
	notResults := t.TempDir()
	newer := golden.Copy(t, sampleDir)
	b, _ := os.ReadFile(filepath.Join(newer, resultsdir.JSONFile))
	os.WriteFile(filepath.Join(newer, resultsdir.JSONFile), []byte(strings.Replace(string(b), `"schema_version": 1`, `"schema_version": 99`, 1)), 0o644)
	corrupt := golden.Copy(t, sampleDir)
	run, err := resultsdir.ReadRun(corrupt)
	if err != nil {
		t.Fatal(err)
	}
	badLog := run.Cells[len(run.Cells)-1].Histograms[resultsdir.MetricAttempt]
	os.WriteFile(filepath.Join(corrupt, badLog), []byte("#[StartTime: 1]\n0.1,1.0,1.0,NOT-BASE64!!\n"), 0o644)
	missing := golden.Copy(t, sampleDir)
	os.Remove(filepath.Join(missing, run.Cells[0].Histograms[resultsdir.MetricAcquire]))

	for _, tc := range []struct {
		name, dir, mention string
	}{
		{"not a results folder", notResults, "not a lockbench results folder"},
		{"newer schema", newer, resultsdir.JSONFile},
		{"corrupt histogram log", corrupt, filepath.Base(badLog)},
		{"missing histogram log", missing, filepath.Base(run.Cells[0].Histograms[resultsdir.MetricAcquire])},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Write(tc.dir, report.Options{Stores: fixtureStores})
			if err == nil || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("error %v, want one that mentions %q", err, tc.mention)
			}
			for _, out := range []string{report.File, plots.Dir} {
				if _, err := os.Stat(filepath.Join(tc.dir, out)); !os.IsNotExist(err) {
					t.Errorf("%s written despite bad input", out)
				}
			}
		})
	}
}

func TestStrategyFilterKeepsOnlyThoseAndNamesUnknownOnes(t *testing.T) {
	dir := golden.Copy(t, sampleDir)
	if err := Write(dir, report.Options{Stores: fixtureStores, Strategies: []string{"single", "wait"}}); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, report.File))
	if strings.Contains(string(md), "`redlock`") || !strings.Contains(string(md), "`wait`") {
		t.Errorf("report for single and wait mentions other strategies or misses wait")
	}
	err := Write(dir, report.Options{Stores: fixtureStores, Strategies: []string{"zookeeper"}})
	if err == nil || !strings.Contains(err.Error(), "zookeeper") || !strings.Contains(err.Error(), "single") {
		t.Errorf("unknown strategy: %v", err)
	}
}
