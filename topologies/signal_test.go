package topologies_test

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestHelperHoldTopology is not a test: run as a child by the tests below, it starts a
// sentinel topology, prints its dir and server pids, and waits to be signalled.
func TestHelperHoldTopology(t *testing.T) {
	testenv.Hold(t, "hold", func() ([]string, error) {
		topo, err := topologies.Process{}.Start(context.Background(), topologies.Spec{Kind: topologies.Sentinel})
		if err != nil {
			return nil, err
		}
		var pids []int
		for _, n := range topo.Nodes() {
			pids = append(pids, pidOf(t, n))
		}
		return []string{topo.(interface{ Dir() string }).Dir(), testenv.JoinPids(pids)}, nil
	})
}

// holdTopologyInChild starts the helper and returns it with the topology's dir and pids.
func holdTopologyInChild(t *testing.T) (*exec.Cmd, string, []int) {
	cmd, fields := testenv.HoldInChild(t, "TestHelperHoldTopology", "LOCKBENCH_HELPER=hold", 2)
	return cmd, fields[0], testenv.Pids(fields[1])
}

func TestSignalStopsEveryServerAndRemovesTheDir(t *testing.T) {
	testenv.RequireRedis(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, dir, pids := holdTopologyInChild(t)
			testenv.SignalChild(t, cmd, sig)
			testenv.WaitGone(t, 10*time.Second, "server", pids, testenv.Exited)
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("dir %s survived %v (%v)", dir, sig, err)
			}
		})
	}
}

func TestSIGKILLedOwnerTakesItsServersAlong(t *testing.T) {
	testenv.RequireRedis(t)
	cmd, dir, pids := holdTopologyInChild(t)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	testenv.WaitGone(t, 10*time.Second, "server", pids, testenv.Exited)
	// No handler runs on SIGKILL; the next Start sweeps the orphaned dir.
	topo := testenv.Start(t, topologies.Spec{Kind: topologies.Single})
	topo.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("orphaned dir %s not swept by the next Start (%v)", dir, err)
	}
}
