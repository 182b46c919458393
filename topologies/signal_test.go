package topologies_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestHelperHoldTopology is not a test: run as a child by the tests below, it starts a
// sentinel topology, prints its dir and server pids, and waits to be signalled.
func TestHelperHoldTopology(t *testing.T) {
	if os.Getenv("LOCKBENCH_HELPER") != "hold" {
		t.Skip("helper process only")
	}
	topo, err := topologies.Process{}.Start(context.Background(), topologies.Spec{Kind: topologies.Sentinel})
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	var pids []string
	for _, n := range topo.Nodes() {
		pids = append(pids, fmt.Sprint(pidOf(t, n)))
	}
	fmt.Printf("READY %s %s\n", topo.(interface{ Dir() string }).Dir(), strings.Join(pids, ","))
	time.Sleep(time.Minute)
	os.Exit(3) // never reached when the parent signals us
}

// holdTopologyInChild starts the helper and returns it with the topology's dir and pids.
func holdTopologyInChild(t *testing.T) (*exec.Cmd, string, []int) {
	cmd, fields := testenv.HoldInChild(t, "TestHelperHoldTopology", "LOCKBENCH_HELPER=hold", 2)
	return cmd, fields[0], testenv.Pids(fields[1])
}

// waitGone waits until every pid has exited; servers die asynchronously after a signal.
func waitGone(t *testing.T, pids []int) {
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for !processGone(pid) {
			if time.Now().After(deadline) {
				t.Errorf("server pid %d still alive", pid)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func TestSignalStopsEveryServerAndRemovesTheDir(t *testing.T) {
	testenv.RequireRedis(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, dir, pids := holdTopologyInChild(t)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			status, _ := err.(*exec.ExitError)
			if status == nil || !status.Sys().(syscall.WaitStatus).Signaled() {
				t.Errorf("helper should die of %v, got %v", sig, err)
			}
			waitGone(t, pids)
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
	waitGone(t, pids)
	// No handler runs on SIGKILL; the next Start sweeps the orphaned dir.
	topo := testenv.Start(t, topologies.Spec{Kind: topologies.Single})
	topo.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("orphaned dir %s not swept by the next Start (%v)", dir, err)
	}
}
