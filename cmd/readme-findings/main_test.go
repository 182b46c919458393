package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func folder(t *testing.T, complete bool, md string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "safety-all-20")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	js := `{"complete": ` + map[bool]string{true: "true", false: "false"}[complete] +
		`, "environment": {"command_line": ["/tmp/x/lockbench", "safety", "--all", "--trials", "20"]}}`
	os.WriteFile(filepath.Join(dir, "results.json"), []byte(js), 0o644)
	os.WriteFile(filepath.Join(dir, "results.md"), []byte(md), 0o644)
	return dir
}

const resultsMD = "# lockbench safety results\n\nintro\n\n" + claimsTitle + "\n\npreamble\n\n| step | claim |\n|---|---|\n| step 1 | x |\n\n## setnx-expire (seed 1)\n\nper-scenario table\n"

func readme(t *testing.T, body string) string {
	p := filepath.Join(t.TempDir(), "README.md")
	os.WriteFile(p, []byte(body), 0o644)
	return p
}

func TestTheBlockIsTheRunsClaimsTableUnderItsCommand(t *testing.T) {
	dir := folder(t, true, resultsMD)
	p := readme(t, "# lockbench\n\n## Findings\n\n"+beginMarker+"\nold table\n"+endMarker+"\n\n## Next\n")
	if err := run(p, dir); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	s := string(got)
	for _, want := range []string{"`lockbench safety --all --trials 20` (folder `safety-all-20`)", "| step 1 | x |", "## Next"} {
		if !strings.Contains(s, want) {
			t.Errorf("README lacks %q:\n%s", want, s)
		}
	}
	for _, gone := range []string{"old table", "per-scenario table", "/tmp/x"} {
		if strings.Contains(s, gone) {
			t.Errorf("README still has %q:\n%s", gone, s)
		}
	}
}

func TestRefusalsLeaveTheReadmeAlone(t *testing.T) {
	const body = "# lockbench\n" + beginMarker + "\nold\n" + endMarker + "\n"
	cases := map[string]string{
		"unfinished":   folder(t, false, resultsMD),
		"no claims":    folder(t, true, "# lockbench safety results\n\n## setnx-expire\n"),
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
	p := readme(t, "# lockbench without markers\n")
	if err := run(p, folder(t, true, resultsMD)); err == nil || !strings.Contains(err.Error(), "no findings block") {
		t.Errorf("no markers: %v", err)
	}
}
