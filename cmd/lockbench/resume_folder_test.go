package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/internal/flagrecord"
	"github.com/lockbench/lockbench/safety/results"
)

// TestResumeOfNoLockbenchFolderIsRefusedAndWritesNothing: --resume of a folder that is
// not there, a file, or a folder no lockbench run wrote exits 2 saying which, before
// any server starts, and creates or writes nothing.
func TestResumeOfNoLockbenchFolderIsRefusedAndWritesNothing(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "no-such-run")
	empty := t.TempDir()
	file := writeTestFile(t, t.TempDir(), "results.json", "{}")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--resume", missing}, "--resume " + missing + ": no such folder"},
		{[]string{"safety", "--resume", missing}, "--resume " + missing + ": no such folder"},
		{[]string{"run", "--resume", file}, "--resume " + file + ": not a folder"},
		{[]string{"safety", "--resume", file}, "--resume " + file + ": not a folder"},
		{[]string{"run", "--resume", empty}, "not the folder of a `lockbench run`"},
		{[]string{"safety", "--resume", empty}, "not the folder of a `lockbench safety` run: it holds no results.json"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, nil, &stdout, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s%s)", c.args, code, exitUsage, stdout.String(), stderr.String())
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: message %q does not say %q", c.args, stderr.String(), c.want)
		}
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused --resume created %s (%v)", missing, err)
	}
	if entries, _ := os.ReadDir(empty); len(entries) > 0 {
		t.Errorf("a refused --resume wrote %d files into %s", len(entries), empty)
	}
}

// TestResumeCarriesOnARecordedAllAsAll: a command of several scenarios was --all (or
// --scenario all), and resumes as all; an --all given beside --resume is not doubled
// by a recorded --scenario.
func TestResumeCarriesOnARecordedAllAsAll(t *testing.T) {
	t.Parallel()
	cmd := results.Command{Scenarios: []string{"setnx-expire", "unsafe-release"}, Trials: 20, Seed: 1, Provider: "process", RedisImage: "redis:7"}
	fs := flag.NewFlagSet("safety", flag.ContinueOnError)
	scenario := fs.String("scenario", "", "")
	all := fs.Bool("all", false, "")
	fs.Int("trials", 20, "")
	fs.Int64("seed", 1, "")
	fs.String("provider", "", "")
	fs.String("redis-image", "", "")
	if err := fs.Parse([]string{"--all"}); err != nil {
		t.Fatal(err)
	}
	carried, err := completeSafetyFlags(fs, "dir", cmd)
	if err != nil {
		t.Fatal(err)
	}
	if *scenario != "" || !*all {
		t.Errorf("--all beside --resume: scenario %q, all %v; want the --all alone", *scenario, *all)
	}
	if want := "--provider process --redis-image redis:7 --seed 1 --trials 20"; flagrecord.Join(carried) != want {
		t.Errorf("carried on %q, want %q", flagrecord.Join(carried), want)
	}
}
