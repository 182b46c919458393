package pgtopo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/supervise"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestHelperHoldServer is not a test: run as a child by the tests below, it starts a
// server, pauses it (its backends stopped: the hard case for cleanup), prints the dir
// and the server's pids, and waits to be signalled.
func TestHelperHoldServer(t *testing.T) {
	testenv.Hold(t, "hold-postgres", func() ([]string, error) {
		topo, err := Process{}.Start(context.Background(), backend.Spec{Kind: topologies.Postgres})
		if err != nil {
			return nil, err
		}
		s := topo.(*Server)
		if err := s.node.Pause(); err != nil {
			return nil, err
		}
		postmaster := s.node.Pid()
		pids := []int{postmaster} // first, for the tests that wait on it alone
		for _, p := range supervise.WorkingIn(s.node.dataDir) {
			if p != postmaster {
				pids = append(pids, p)
			}
		}
		return []string{s.Dir(), testenv.JoinPids(pids), fmt.Sprint(segmentID(t, s))}, nil
	})
}

// holdServerInChild starts the helper and returns it with the server's dir, pids and
// shared memory segment.
func holdServerInChild(t *testing.T) (*exec.Cmd, string, []int, int) {
	cmd, fields := testenv.HoldInChild(t, "TestHelperHoldServer", "LOCKBENCH_HELPER=hold-postgres", 3)
	segment, _ := strconv.Atoi(fields[2])
	return cmd, fields[0], testenv.Pids(fields[1]), segment
}

func TestSignalStopsThePausedServerAndRemovesTheDir(t *testing.T) {
	testenv.RequirePostgres(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, dir, pids, segment := holdServerInChild(t)
			testenv.SignalChild(t, cmd, sig)
			waitGone(t, pids)
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("dir %s survived %v (%v)", dir, sig, err)
			}
			if segmentExists(segment) {
				t.Errorf("shared memory segment %d survived %v", segment, sig)
			}
		})
	}
}

// TestSIGKILLedOwnersPausedServerIsSwept: the postmaster dies with its owner through
// Pdeathsig, but backends a Pause stopped stay stopped; the next Start kills them and
// sweeps the dir.
func TestSIGKILLedOwnersPausedServerIsSwept(t *testing.T) {
	testenv.RequirePostgres(t)
	cmd, dir, pids, segment := holdServerInChild(t)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	waitGone(t, pids[:1]) // the postmaster, through Pdeathsig
	stopped := 0
	for _, pid := range pids[1:] {
		if !testenv.ExitedOrZombie(pid) {
			stopped++
		}
	}
	if stopped == 0 {
		t.Fatalf("no stopped backend outlived its owner: nothing for the sweep to do (pids %v)", pids)
	}
	startServer(t, backend.Spec{}).Close()
	waitGone(t, pids)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("orphaned dir %s not swept by the next Start (%v)", dir, err)
	}
	if segmentExists(segment) {
		t.Errorf("orphaned shared memory segment %d not freed by the next Start", segment)
	}
}
