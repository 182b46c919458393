package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/results"
)

// folder writes a safety results folder: failover-loss's variants (two guards at two
// delays, and the zombie without one) and its figure; scenario names the report.
func folder(t *testing.T, complete bool, scenario string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "safety-all-20")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	variant := func(name, mode, delay string, k, n int) *results.Variant {
		v := &results.Variant{Name: name, Measure: results.LostLocks, Params: map[string]string{"mode": mode}}
		if delay != "" {
			v.Params["delay"] = delay
		}
		v.Tally.Judged, v.Tally.Headline = n, results.ProportionOf(k, n)
		v.Tally.Broke = map[results.Measure]int{results.LostLocks: k}
		return v
	}
	res := results.Results{Complete: complete,
		Environment: &resultsdir.Environment{CommandLine: []string{"/tmp/x/lockbench", "safety", "--all", "--trials", "20"}},
		Reports: []*results.Report{{Scenario: scenario, Variants: []*results.Variant{
			variant("none-delay-0ms", "none", "0s", 18, 20), variant("none-delay-50ms", "none", "50ms", 10, 20),
			variant("wait2-delay-0ms", "wait2", "0s", 0, 20), variant("zombie", "zombie", "", 20, 20),
		}}},
		Figures: []results.FigureRef{{Name: "failover-loss_vs-delay-from-grant-to-master-kill",
			Files: []string{"figures/failover-loss_vs-delay-from-grant-to-master-kill.png"}}},
	}
	js, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "results.json"), js, 0o644)
	// A results.md saying otherwise is not read: the table is judged from the trials.
	os.WriteFile(filepath.Join(dir, "results.md"), []byte("# lockbench safety results\n\n"+claimsTitle+"\n\n| step 1 | stale |\n"), 0o644)
	return dir
}

func readme(t *testing.T, body string) string {
	p := filepath.Join(t.TempDir(), "README.md")
	os.WriteFile(p, []byte(body), 0o644)
	return p
}

func TestTheBlockIsTheRunsClaimsTableUnderItsCommand(t *testing.T) {
	dir := folder(t, true, "failover-loss")
	p := readme(t, "# lockbench\n\n## Headline\n\n"+headlineBegin+"\nold figure\n"+headlineEnd+"\n\n## Findings\n\n"+beginMarker+"\nold table\n"+endMarker+"\n\n## Next\n")
	if err := run(p, dir); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	s := string(got)
	for _, want := range []string{"`lockbench safety --all --trials 20` (folder `safety-all-20`)", "## Next",
		// Judged from the trials: no guard at 0 ms lost 18 of 20, so the loss is shown.
		"| step 4 | a Sentinel failover promotes a replica without the lock: a second client takes it | `failover-loss`: lost_locks |",
		// The headline: the run's figure, linked from the README's folder, and one cell per
		// guard and delay; a guard not run at a delay says so; the zombie has no delay.
		"](" + filepath.ToSlash(mustRel(t, filepath.Dir(p), dir)) + "/figures/failover-loss_vs-delay-from-grant-to-master-kill.png)",
		"| guard | killed 0s after the grant | killed 50ms after the grant |",
		"| none | 18 of 20 judged (70-97%) | 10 of 20 judged (30-70%) |",
		"| wait2 | 0 of 20 judged (0-16%) | not run |",
		// The command that rewrites the blocks names the folder as it was given.
		"`scripts/readme-findings.sh " + dir + "`"} {
		if !strings.Contains(s, want) {
			t.Errorf("README lacks %q:\n%s", want, s)
		}
	}
	for _, gone := range []string{"old table", "old figure", "stale", "/tmp/x", "| zombie |"} {
		if strings.Contains(s, gone) {
			t.Errorf("README still has %q:\n%s", gone, s)
		}
	}
}

func TestRefusalsLeaveTheReadmeAlone(t *testing.T) {
	const body = "# lockbench\n" + headlineBegin + "\nold\n" + headlineEnd + "\n" + beginMarker + "\nold\n" + endMarker + "\n"
	cases := map[string]string{
		"unfinished":   folder(t, false, "failover-loss"),
		"not a folder": filepath.Join(t.TempDir(), "missing"),
	}
	for name, dir := range cases {
		p := readme(t, body)
		err := run(p, dir)
		if !errors.As(err, new(usageError)) {
			t.Errorf("%s: error %v, want a usage error", name, err)
		}
		if got, _ := os.ReadFile(p); string(got) != body {
			t.Errorf("%s: README changed:\n%s", name, got)
		}
	}
	// A failover-loss whose variants no claim reads: the headline has its cell, the
	// findings have no row, and nothing is written.
	noClaims := folder(t, true, "failover-loss")
	other := &results.Variant{Name: "other-delay-0ms", Measure: results.LostLocks, Params: map[string]string{"mode": "other", "delay": "0s"}}
	other.Tally.Judged, other.Tally.Headline = 20, results.ProportionOf(1, 20)
	js, _ := json.Marshal(results.Results{Complete: true, Reports: []*results.Report{{Scenario: "failover-loss", Variants: []*results.Variant{other}}},
		Figures: []results.FigureRef{{Name: "failover-loss_vs-delay-from-grant-to-master-kill", Files: []string{"figures/failover-loss_vs-delay-from-grant-to-master-kill.png"}}}})
	os.WriteFile(filepath.Join(noClaims, "results.json"), js, 0o644)
	p := readme(t, body)
	if err := run(p, noClaims); !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "no claim of the write-up was run") {
		t.Errorf("no claims: %v, want a usage error saying no claim was run", err)
	}
	if got, _ := os.ReadFile(p); string(got) != body {
		t.Errorf("no claims: README changed:\n%s", got)
	}
	p = readme(t, "# lockbench without markers\n")
	if err := run(p, folder(t, true, "failover-loss")); err == nil || !strings.Contains(err.Error(), "no findings block") {
		t.Errorf("no markers: %v", err)
	}
	// The findings markers alone: nothing is written, the missing headline is named.
	const findingsOnly = "# lockbench\n" + beginMarker + "\nold\n" + endMarker + "\n"
	p = readme(t, findingsOnly)
	if err := run(p, folder(t, true, "failover-loss")); err == nil || !strings.Contains(err.Error(), "no headline block") {
		t.Errorf("no headline markers: %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != findingsOnly {
		t.Errorf("no headline markers: README changed:\n%s", got)
	}
}

func mustRel(t *testing.T, base, target string) string {
	t.Helper()
	rel, err := filepath.Rel(base, target)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// A folder without failover-loss (one scenario's run) has no headline to give: refused,
// naming the scenario, and the README is left as it was.
func TestAFolderWithoutFailoverLossIsRefused(t *testing.T) {
	dir := folder(t, true, "failover-loss")
	js, _ := json.Marshal(results.Results{Complete: true, Reports: []*results.Report{{Scenario: "setnx-expire"}}})
	os.WriteFile(filepath.Join(dir, "results.json"), js, 0o644)
	const body = "# lockbench\n" + headlineBegin + "\nold\n" + headlineEnd + "\n" + beginMarker + "\nold\n" + endMarker + "\n"
	p := readme(t, body)
	err := run(p, dir)
	if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "no failover-loss report") {
		t.Errorf("error %v, want a usage error naming failover-loss", err)
	}
	if got, _ := os.ReadFile(p); string(got) != body {
		t.Errorf("README changed:\n%s", got)
	}
}
