package zktopo_test

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
	"github.com/lockbench/lockbench/topologies/zktopo"
)

// TestHelperHoldEnsemble is not a test: run as a child by the tests below, it starts an
// ensemble of three, pauses one server (a stopped JVM must die too), prints the dir and
// the JVMs' pids, and waits to be signalled.
func TestHelperHoldEnsemble(t *testing.T) {
	testenv.Hold(t, "hold-zookeeper", func() ([]string, error) {
		topo, err := zktopo.Process{}.Start(context.Background(), topologies.Spec{Kind: topologies.ZooKeeper, Members: 3})
		if err != nil {
			return nil, err
		}
		e := topo.(*zktopo.Ensemble)
		if err := e.Nodes()[0].Pause(); err != nil {
			return nil, err
		}
		return []string{e.Dir(), testenv.JoinPids(e.Pids())}, nil
	})
}

func TestSignalOrKillOfTheOwnerStopsEveryJVM(t *testing.T) {
	testenv.RequireZooKeeper(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, fields := testenv.HoldInChild(t, "TestHelperHoldEnsemble", "LOCKBENCH_HELPER=hold-zookeeper", 2)
			dir, pids := fields[0], testenv.Pids(fields[1])
			if len(pids) != 3 {
				t.Fatalf("helper reported pids %v, want 3", pids)
			}
			testenv.SignalChild(t, cmd, sig)
			// SIGINT and SIGTERM reach the reaper; SIGKILL leaves it to Pdeathsig.
			testenv.WaitGone(t, 10*time.Second, "JVM", pids, testenv.Exited)
			if sig == syscall.SIGKILL {
				startEnsemble(t, 1).Close() // the next start sweeps the orphaned dir
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("dir %s survived %v (%v)", dir, sig, err)
			}
		})
	}
}
