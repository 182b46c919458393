package rediscluster_test

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

	"github.com/lockbench/lockbench/backends/rediscluster"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestHelperHoldCluster is the child of the signal test: it starts a cluster, pauses
// one node, prints its dir and every node's pid, and waits to be signalled.
func TestHelperHoldCluster(t *testing.T) {
	if os.Getenv("LOCKBENCH_HELPER") != "hold-cluster" {
		t.Skip("helper process only")
	}
	topo, err := rediscluster.Process{}.Start(context.Background(), topologies.Spec{Kind: rediscluster.Kind})
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	c := topo.(*rediscluster.Cluster)
	if err := c.Replicas()[0].Pause(); err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	var pids []string
	for _, n := range c.Nodes() {
		pids = append(pids, fmt.Sprint(n.(interface{ Pid() int }).Pid()))
	}
	fmt.Printf("READY %s %s\n", c.Dir(), strings.Join(pids, ","))
	time.Sleep(time.Minute)
	os.Exit(3) // never reached when the parent signals us
}

// An interrupted, terminated or killed owner leaves no node running (a paused one
// included) and, once the next start sweeps, no folder.
func TestSignalOrKillOfTheOwnerStopsEveryNode(t *testing.T) {
	testenv.RequireRedis(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, fields := testenv.HoldInChild(t, "TestHelperHoldCluster", "LOCKBENCH_HELPER=hold-cluster", 2)
			dir, pids := fields[0], testenv.Pids(fields[1])
			if len(pids) != 6 {
				t.Fatalf("helper reported pids %v, want 6", pids)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			status, _ := err.(*exec.ExitError)
			if status == nil || !status.Sys().(syscall.WaitStatus).Signaled() {
				t.Errorf("helper should die of %v, got %v", sig, err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for _, pid := range pids {
				for !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
					if time.Now().After(deadline) {
						t.Fatalf("node pid %d still exists after %v", pid, sig)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			if sig == syscall.SIGKILL {
				startCluster(t, topologies.Spec{}).Close() // the next start sweeps the orphaned dir
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("dir %s survived %v (%v)", dir, sig, err)
			}
		})
	}
}
