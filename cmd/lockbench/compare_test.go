package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/report/synth"
)

func synthFolder(t *testing.T, o synth.Options) string {
	t.Helper()
	dir := t.TempDir()
	o.Small, o.Samples, o.NoHistograms = true, 300, true
	if _, err := synth.Write(dir, o); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCompareIdenticalFoldersIsUnchanged(t *testing.T) {
	dir := synthFolder(t, synth.Options{Seed: 1})
	var stdout, stderr bytes.Buffer
	if code := run([]string{"compare", dir, dir}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "\nunchanged: all") || strings.Contains(stdout.String(), " worse ") {
		t.Errorf("identical folders not called unchanged:\n%s", stdout.String())
	}
}

func TestCompareFlagsTwiceSlower(t *testing.T) {
	old := synthFolder(t, synth.Options{Seed: 1})
	slow := synthFolder(t, synth.Options{Seed: 1, Slowdown: 2})
	var stdout, stderr bytes.Buffer
	if code := run([]string{"compare", old, slow}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "+100.0%  worse") {
		t.Errorf("a 2x slowdown is not flagged worse:\n%s", stdout.String())
	}
}

func TestCompareTreatsCommaListsAsRepeats(t *testing.T) {
	var old, slow []string
	for seed := uint64(1); seed <= 4; seed++ {
		old = append(old, synthFolder(t, synth.Options{Seed: seed}))
		slow = append(slow, synthFolder(t, synth.Options{Seed: seed + 100, Slowdown: 2}))
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"compare", strings.Join(old, ","), strings.Join(slow, ",")}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	rows, tested := 0, 0
	for _, line := range strings.Split(stdout.String(), "\n") {
		if strings.Contains(line, "acquire p50") {
			rows++
			if strings.Contains(line, " worse ") && strings.Contains(line, "n=4+4") {
				tested++
			}
		}
	}
	if rows == 0 || tested != rows {
		t.Errorf("%d of %d p50 rows tested as four repeats a side and found worse:\n%s", tested, rows, stdout.String())
	}
}

func TestCompareRefusesBadInputWithExit2(t *testing.T) {
	good := synthFolder(t, synth.Options{Seed: 1})
	for _, args := range [][]string{
		{"compare", good},
		{"compare", good, t.TempDir()},
		{"compare", "--threshold", "lots", good, good},
	} {
		var stderr bytes.Buffer
		if code := run(args, nil, &bytes.Buffer{}, &stderr); code != exitUsage || stderr.Len() == 0 {
			t.Errorf("%q: exit %d, stderr %q; want %d and a message", args, code, stderr.String(), exitUsage)
		}
	}
}
