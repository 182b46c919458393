package testenv

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// OwnerDies checks that a topology dies with its owner: for SIGINT, SIGTERM and
// SIGKILL it runs helper (see Hold; env selects it) in a child whose READY line gives
// the topology's dirs, comma-separated, and its want pids; signals the child; waits
// until every pid (what names them) is gone; and, once sweep has run after a SIGKILL
// (no handler runs then: the next start sweeps the orphans), finds no dir left.
// SIGINT and SIGTERM reach the reaper; SIGKILL leaves the servers to Pdeathsig.
func OwnerDies(t *testing.T, helper, env string, want int, what string, sweep func(t *testing.T)) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, fields := HoldInChild(t, helper, env, 2)
			dirs, pids := strings.Split(fields[0], ","), Pids(fields[1])
			if len(pids) != want {
				t.Fatalf("helper reported pids %v, want %d", pids, want)
			}
			SignalChild(t, cmd, sig)
			WaitGone(t, 10*time.Second, what, pids, Exited)
			if sig == syscall.SIGKILL {
				sweep(t)
			}
			for _, d := range dirs {
				if _, err := os.Stat(d); !os.IsNotExist(err) {
					t.Errorf("dir %s left after the owner died of %v: %v", d, sig, err)
				}
			}
		})
	}
}
