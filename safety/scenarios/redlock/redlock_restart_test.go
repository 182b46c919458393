package redlock

import (
	"slices"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// A 45 s TTL: the host-crash variants restart three nodes on rebuilt disks, which a
// loaded machine can stretch past the default 2 s while A still holds; at 8 s, load 31,
// appendfsync-always's restart and B's try outlasted A's validity (an error, no verdict),
// and at 20 s in a fresh-clone CI on the slower machine, in both tests.
func TestRedlockRestart(t *testing.T) {
	t.Parallel()
	labtest.RunScenario(t, "redlock-restart", 1, lab.Params{"ttl": "45s"})
}

// --param fsync picks the host-crash variants; the restarts that keep no AOF all run.
func TestRedlockRestartRunsTheHostCrashesOfTheAskedPolicies(t *testing.T) {
	t.Parallel()
	rep := labtest.RunScenario(t, "redlock-restart", 1, lab.Params{"ttl": "45s", "fsync": "always"})
	var names []string
	for _, v := range rep.Variants {
		names = append(names, strings.TrimPrefix(v.Name, "redlock/"))
	}
	want := []string{"restart-empty", "delayed-restart", "appendfsync-always", "extend-setnx", "extend-plain"}
	if !slices.Equal(names, want) {
		t.Errorf("variants %v, want %v", names, want)
	}
}
