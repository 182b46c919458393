package zktopo_test

import (
	"context"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/backends/zookeeper/zktopo"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestHelperHoldEnsemble is not a test: run as a child by the test below, it starts an
// ensemble of three, pauses one server (a stopped JVM must die too), prints the dir and
// the JVMs' pids, and waits to be signalled.
func TestHelperHoldEnsemble(t *testing.T) {
	testenv.Hold(t, "hold-zookeeper", func() ([]string, error) {
		topo, err := zktopo.Process{}.Start(context.Background(), backend.Spec{Kind: zookeeper.Kind, Members: 3})
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
	testenv.RequireServer(t, zookeeper.Kind)
	testenv.OwnerDies(t, "TestHelperHoldEnsemble", "LOCKBENCH_HELPER=hold-zookeeper", 3, "JVM", func(t *testing.T) {
		startEnsemble(t, 1).Close()
	})
}
