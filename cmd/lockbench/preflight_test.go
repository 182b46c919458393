package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/preflight"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// hideZooKeeper makes this machine look like one without ZooKeeper, through the
// override zookeeper.Find honours.
func hideZooKeeper(t *testing.T) { t.Setenv("ZOOKEEPER_JAVA_DIR", "/nonexistent") }

// runRefused runs the command line, wants exit 2 and no --out folder, returns stderr.
func runRefused(t *testing.T, out string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(args, strings.NewReader(""), &stdout, &stderr); code != exitUsage {
		t.Fatalf("%v: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", args, code, exitUsage, stdout.String(), stderr.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%v: results folder %s exists (stat: %v): the preflight must refuse before it is made", args, out, err)
	}
	return stderr.String()
}

func wantAll(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("output lacks %q:\n%s", w, text)
		}
	}
}

// withoutZooKeeper is the quick matrix's strategies but ZooKeeper's, as the stores
// shipped with this test declare them.
const withoutZooKeeper = "single,wait,sentinel,redlock,etcd,etcd-3,cluster,cluster-wait,redlock-failfast"

// wantLeftOut fails t unless text's "--strategies" line holds want's strategies in
// that order, and none of the store left out; a strategy want does not name (a store
// added since) may stand between.
func wantLeftOut(t *testing.T, text, want, leftOut string) {
	t.Helper()
	_, line, _ := strings.Cut(text, "--strategies ")
	line, _, _ = strings.Cut(line, "\n")
	var known []string
	for _, s := range strings.Split(line, ",") {
		if slices.Contains(strings.Split(want, ","), s) {
			known = append(known, s)
		}
	}
	if got := strings.Join(known, ","); got != want || strings.Contains(line, leftOut) {
		t.Errorf("--strategies line %q holds %s of those it must, want %s:\n%s", line, got, want, text)
	}
}

func TestPreflightRunQuickWithoutZooKeeper(t *testing.T) {
	hideZooKeeper(t)
	out := filepath.Join(t.TempDir(), "out")
	msg := runRefused(t, out, "run", "--quick", "--no-report", "--out", out)
	wantAll(t, msg, "ZooKeeper", "for zookeeper, zookeeper-3", "install: apt-get install zookeeper")
	wantLeftOut(t, msg, withoutZooKeeper, "zookeeper")
	// What is installed is not reported missing.
	for _, present := range []string{"redis-server", "PostgreSQL", "libfaketime"} {
		if strings.Contains(msg, present) {
			t.Errorf("%s is installed but reported:\n%s", present, msg)
		}
	}
}

func TestPreflightRunUpdateWorkloadWithoutPostgres(t *testing.T) {
	t.Setenv("POSTGRES_BIN_DIR", "/nonexistent")
	out := filepath.Join(t.TempDir(), "out")
	msg := runRefused(t, out, "run", "--workload", "update", "--quick", "--strategies", "single,cas-version", "--out", out)
	// Every update cell keeps its rows in PostgreSQL: no --strategies helps.
	wantAll(t, msg, "PostgreSQL server", "install: apt-get install postgresql", "no --strategies leaves it out")
}

func TestPreflightCapacityWithoutZooKeeper(t *testing.T) {
	hideZooKeeper(t)
	out := filepath.Join(t.TempDir(), "out")
	msg := runRefused(t, out, "capacity", "--strategies", "single,zookeeper", "--out", out)
	wantAll(t, msg, "ZooKeeper", "install: apt-get install zookeeper", "--strategies single\n")
}

func TestPreflightSafetyWithoutJava(t *testing.T) {
	t.Setenv("JAVA_HOME", "/nonexistent")
	out := filepath.Join(t.TempDir(), "out")
	msg := runRefused(t, out, "safety", "--scenario", "etcd-leader-kill", "--trials", "1", "--out", out)
	wantAll(t, msg, "ZooKeeper", "JAVA_HOME=/nonexistent", "install: apt-get install zookeeper",
		"--scenario etcd-leader-kill --param strategies=etcd-3,etcd")
}

func TestPreflightSafetyWithoutPostgres(t *testing.T) {
	t.Setenv("POSTGRES_BIN_DIR", "/nonexistent")
	out := filepath.Join(t.TempDir(), "out")
	msg := runRefused(t, out, "safety", "--scenario", "lost-updates", "--trials", "1", "--out", out)
	wantAll(t, msg, "PostgreSQL server", "install: apt-get install postgresql", "scenario lost-updates needs PostgreSQL")
}

func TestPreflightSafetyWithoutLibfaketime(t *testing.T) {
	t.Setenv("LIBFAKETIME", "/nonexistent")
	out := filepath.Join(t.TempDir(), "out")
	msg := runRefused(t, out, "safety", "--scenario", "single-clock-skew", "--trials", "1", "--out", out)
	wantAll(t, msg, "libfaketime", "install: apt-get install faketime")
}

// A scenario nobody declared would be run unchecked: the table must know them all.
func TestPreflightKnowsEveryScenario(t *testing.T) {
	t.Parallel()
	for _, name := range lab.Names() {
		s, err := lab.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := preflight.ForScenarios([]lab.Scenario{s}, nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The checker passes what is installed and fails what is hidden, piece by piece.
func TestPreflightCheckTellsPresentFromMissing(t *testing.T) {
	needs, err := preflight.ForStrategies([]string{"single", "zookeeper", "pg-advisory"})
	if err != nil {
		t.Fatal(err)
	}
	if missing := preflight.Check("", needs); len(missing) != 0 {
		t.Fatalf("everything is installed here (scripts/deps.sh), yet missing: %+v", missing)
	}
	t.Setenv("REDIS_SERVER", "/nonexistent/redis-server")
	missing := preflight.Check("", needs)
	if len(missing) != 1 || missing[0].Piece.Name != "redis-server" || strings.Join(missing[0].By, ",") != "single" {
		t.Fatalf("with redis-server hidden: want redis-server missing for single only, got %+v", missing)
	}
}

func TestDoctorExitsZeroHere(t *testing.T) {
	t.Parallel()
	testenv.NeedsServers(t)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"doctor"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, want 0\n%s%s", code, stdout.String(), stderr.String())
	}
	wantAll(t, stdout.String(), "provider process", "provider container", "provider embedded", "provider external",
		"--provider auto would pick", "missing\n  nothing\n", "run --quick: can run here")
}

func TestDoctorWithoutZooKeeper(t *testing.T) {
	testenv.NeedsServers(t)
	hideZooKeeper(t)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"doctor"}, strings.NewReader(""), &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout.String(), stderr.String())
	}
	wantAll(t, stdout.String(), "ZooKeeper (Java and zookeeper.jar)       install: apt-get install zookeeper",
		"run --quick: cannot run here")
	wantLeftOut(t, stdout.String(), withoutZooKeeper, "zookeeper")
	_, section, _ := strings.Cut(stdout.String(), "\nmissing\n")
	section, _, _ = strings.Cut(section, "\n\n")
	if strings.Contains(section, "redis-server") || strings.Contains(section, "PostgreSQL") {
		t.Errorf("installed pieces listed missing:\n%s", section)
	}
}

func TestDoctorRefusesArguments(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"doctor", "extra"}, strings.NewReader(""), &stdout, &stderr); code != exitUsage {
		t.Fatalf("exit %d, want %d", code, exitUsage)
	}
	wantAll(t, stderr.String(), `unexpected arguments ["extra"]`)
}
