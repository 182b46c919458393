package etcdtopo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/backends/etcd/etcdtopo"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestHelperHoldProcessCluster is not a test: run as a child by the test below, it
// starts three member processes, pauses one (a stopped process must die too), prints
// their dirs and pids, and waits to be signalled.
func TestHelperHoldProcessCluster(t *testing.T) {
	testenv.Hold(t, "hold-etcd-process", func() ([]string, error) {
		topo, err := etcdtopo.Process{}.Start(context.Background(), backend.Spec{Kind: etcd.Kind, Members: 3})
		if err != nil {
			return nil, err
		}
		c := topo.(*etcdtopo.Cluster)
		if err := c.Nodes()[0].Pause(); err != nil {
			return nil, err
		}
		return []string{strings.Join(c.Dirs(), ","), testenv.JoinPids(c.Pids())}, nil
	})
}

func TestSignalOrKillOfTheOwnerStopsEveryMemberProcess(t *testing.T) {
	testenv.NeedsServers(t)
	testenv.OwnerDies(t, "TestHelperHoldProcessCluster", "LOCKBENCH_HELPER=hold-etcd-process", 3, "member", func(t *testing.T) {
		startProcessCluster(t, backend.Spec{Kind: etcd.Kind}).Close()
	})
}
