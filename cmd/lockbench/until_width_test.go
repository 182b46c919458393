package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func TestUntilWidthRefusesWidthsOutsideZeroToOne(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"0", "0%", "1", "150%", "-0.1", "wide"} {
		var out, errb bytes.Buffer
		dir := filepath.Join(t.TempDir(), "s")
		if code := run([]string{"safety", "--scenario", "setnx-expire", "--until-width", w, "--out", dir}, nil, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "--until-width") {
			t.Errorf("--until-width %s: exit %d, %q; want %d naming the flag", w, code, errb.String(), exitUsage)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("--until-width %s: a folder was made", w)
		}
	}
	for w, want := range map[string]float64{"5%": 0.05, "0.05": 0.05, "12.5%": 0.125} {
		if got, err := parseWidth(w); err != nil || got != want {
			t.Errorf("parseWidth(%q) = %v, %v; want %v", w, got, err, want)
		}
	}
}

// TestUntilWidthStopsEachVariantAtItsFirstNarrowSequence: with --until-width 50% and a
// cap of 20, each setnx-expire variant stops at the first trial after which its
// confidence sequence is narrower than 50% (7 judged trials, at 0 or 7 breaks of 7),
// and its table reads the sequence.
func TestUntilWidthStopsEachVariantAtItsFirstNarrowSequence(t *testing.T) {
	t.Parallel()
	testenv.RequireRedis(t)
	dir := filepath.Join(t.TempDir(), "s")
	var out, errb bytes.Buffer
	if c := run([]string{"safety", "--scenario", "setnx-expire", "--trials", "20", "--seed", "5", "--until-width", "50%", "--out", dir}, nil, &out, &errb); c != 0 {
		t.Fatalf("exit %d: %s", c, errb.String())
	}
	res, err := results.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if res.Command.UntilWidth != 0.5 {
		t.Errorf("command records until_width %v, want 0.5", res.Command.UntilWidth)
	}
	for _, v := range res.Reports[0].Variants {
		a := v.Tally.Anytime
		if v.Stopping == "" || v.Interval() != a {
			t.Errorf("%s: stopping %q, interval %v: want marked and read from the sequence %v", v.Name, v.Stopping, v.Interval(), a)
		}
		if v.Tally.Trials >= 20 || a.N == 0 || a.Hi-a.Lo >= 0.5 {
			t.Errorf("%s: %d trials, sequence %v: want stopped below the cap once narrower than 50%%", v.Name, v.Tally.Trials, a)
			continue
		}
		// One trial fewer must not have been narrow enough: it stopped at the first chance.
		before := results.TallyOf(v.Measure, v.Trials[:len(v.Trials)-1]).Anytime
		if before.N > 0 && before.Hi-before.Lo < 0.5 {
			t.Errorf("%s: already %v after %d trials, yet ran one more", v.Name, before, len(v.Trials)-1)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "results.md"))
	if !strings.Contains(string(md), "confidence sequence") {
		t.Error("results.md does not say its intervals are the confidence sequence")
	}
}
