package etcdtopo_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/etcdtopo"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestHelperHoldProcessCluster is not a test: run as a child by the test below, it
// starts three member processes, pauses one (a stopped process must die too), prints
// their dirs and pids, and waits to be signalled.
func TestHelperHoldProcessCluster(t *testing.T) {
	testenv.Hold(t, "hold-etcd-process", func() ([]string, error) {
		topo, err := etcdtopo.Process{}.Start(context.Background(), topologies.Spec{Kind: topologies.Etcd, Members: 3})
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
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, fields := testenv.HoldInChild(t, "TestHelperHoldProcessCluster", "LOCKBENCH_HELPER=hold-etcd-process", 2)
			dirs, pids := strings.Split(fields[0], ","), testenv.Pids(fields[1])
			if len(pids) != 3 || len(dirs) != 3 {
				t.Fatalf("helper reported dirs %v pids %v, want 3 each", dirs, pids)
			}
			testenv.SignalChild(t, cmd, sig)
			// SIGINT and SIGTERM reach the reaper; SIGKILL leaves it to Pdeathsig.
			testenv.WaitGone(t, 10*time.Second, "member", pids, testenv.Exited)
			if sig == syscall.SIGKILL {
				startProcessCluster(t, topologies.Spec{Kind: topologies.Etcd}).Close() // the next start sweeps the orphans
			}
			for _, d := range dirs {
				if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("dir %s left after the owner died of %v: %v", d, sig, err)
				}
			}
		})
	}
}
