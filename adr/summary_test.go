package adr

import (
	"os"
	"strings"
	"testing"
)

// The record opens with its decision and why not the others, before the context: the
// chosen option with its cost and count a year, then each ruled-out group's reasons.
func TestTheFirstScreenIsTheDecision(t *testing.T) {
	d := decideSynthetic(t, "testdata/correctness.yaml")
	md := Markdown(d, Meta{Date: "2026-12-06", Command: "lockbench adr"})
	decision, context := strings.Index(md, "**Decision: cas-version (no lock)** (no lock service): p99 "), strings.Index(md,
		"## Context and Problem Statement")
	if decision < 0 || context < 0 || decision > context {
		t.Fatalf("the decision is not the first screen (at %d, the context at %d):\n%s", decision, context, md[:min(len(md), 2000)])
	}
	if !strings.Contains(md[:context], "Not 7 options (wait, sentinel, ") ||
		!strings.Contains(md[:context], "Not etcd + fence: at least 2.00 violations reaching the data a year") {
		t.Errorf("the first screen does not say why not the others:\n%s", md[:context])
	}
}

// Where the queueing floor decides, the first screen says no lock can meet the budget
// and what would.
func TestTheFirstScreenOfAFloorDecision(t *testing.T) {
	w := loadWorkload(t, "../docs/adr-workload.yaml")
	d := Decide(w, decideSynthetic(t, "testdata/efficiency.yaml").Inputs)
	lines := summaryOf(d)
	if !strings.HasPrefix(lines[0], "**Decision: none. No lock can meet p99 within 10.0ms at 10.0/s**") ||
		!strings.Contains(lines[0], "What would: holds of at most") {
		t.Errorf("first line: %s", lines[0])
	}
	if len(lines) < 2 || !strings.Contains(strings.Join(lines[1:], "\n"),
		"no lock can meet the latency budget (the queueing floor, under Decision Drivers)") {
		t.Errorf("why not: %q", lines[1:])
	}
}

// The shipped records read in paragraphs a reviewer takes in at once: none of their
// prose lines (table rows and commands aside) runs past 600 characters.
func TestTheShippedRecordsKeepParagraphsShort(t *testing.T) {
	for _, path := range []string{"../findings/adr-efficiency-2026-12-06/adr.md", "../findings/adr-correctness-2026-12-06/adr.md"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if len(line) > 600 && !strings.HasPrefix(line, "|") && !strings.HasPrefix(line, "    ") {
				t.Errorf("%s:%d: %d characters: %.80s...", path, i+1, len(line), line)
			}
		}
	}
}
