package etcdtopo_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
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
	if os.Getenv("LOCKBENCH_HELPER") != "hold-etcd-process" {
		t.Skip("helper process only")
	}
	topo, err := etcdtopo.Process{}.Start(context.Background(), topologies.Spec{Kind: topologies.Etcd, Members: 3})
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	c := topo.(*etcdtopo.Cluster)
	if err := c.Nodes()[0].Pause(); err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	var pids []string
	for _, p := range c.Pids() {
		pids = append(pids, fmt.Sprint(p))
	}
	fmt.Printf("READY %s %s\n", strings.Join(c.Dirs(), ","), strings.Join(pids, ","))
	time.Sleep(time.Minute)
	os.Exit(3) // never reached when the parent signals us
}

func TestSignalOrKillOfTheOwnerStopsEveryMemberProcess(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, fields := testenv.HoldInChild(t, "TestHelperHoldProcessCluster", "LOCKBENCH_HELPER=hold-etcd-process", 2)
			dirs, pids := strings.Split(fields[0], ","), testenv.Pids(fields[1])
			if len(pids) != 3 || len(dirs) != 3 {
				t.Fatalf("helper reported dirs %v pids %v, want 3 each", dirs, pids)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			status, _ := err.(*exec.ExitError)
			if status == nil || !status.Sys().(syscall.WaitStatus).Signaled() {
				t.Errorf("helper should die of %v, got %v", sig, err)
			}
			// SIGINT and SIGTERM reach the reaper; SIGKILL leaves it to Pdeathsig.
			deadline := time.Now().Add(10 * time.Second)
			for _, pid := range pids {
				for alive(pid) {
					if time.Now().After(deadline) {
						t.Fatalf("member pid %d still exists after the owner died of %v", pid, sig)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
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
