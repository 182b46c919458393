package zktopo_test

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
	"github.com/lockbench/lockbench/topologies/zktopo"
)

// TestHelperHoldEnsemble is not a test: run as a child by the tests below, it starts an
// ensemble of three, pauses one server (a stopped JVM must die too), prints the dir and
// the JVMs' pids, and waits to be signalled.
func TestHelperHoldEnsemble(t *testing.T) {
	if os.Getenv("LOCKBENCH_HELPER") != "hold-zookeeper" {
		t.Skip("helper process only")
	}
	topo, err := zktopo.Process{}.Start(context.Background(), topologies.Spec{Kind: topologies.ZooKeeper, Members: 3})
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	e := topo.(*zktopo.Ensemble)
	if err := e.Nodes()[0].Pause(); err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	var pids []string
	for _, p := range e.Pids() {
		pids = append(pids, fmt.Sprint(p))
	}
	fmt.Printf("READY %s %s\n", e.Dir(), strings.Join(pids, ","))
	time.Sleep(time.Minute)
	os.Exit(3) // never reached when the parent signals us
}

// waitGone polls until no pid exists, or fails after a deadline.
func waitGone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Errorf("JVM %d still exists", pid)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
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
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			status, _ := err.(*exec.ExitError)
			if status == nil || !status.Sys().(syscall.WaitStatus).Signaled() {
				t.Errorf("helper should die of %v, got %v", sig, err)
			}
			// SIGINT and SIGTERM reach the reaper; SIGKILL leaves it to Pdeathsig.
			waitGone(t, pids)
			if sig == syscall.SIGKILL {
				startEnsemble(t, 1).Close() // the next start sweeps the orphaned dir
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("dir %s survived %v (%v)", dir, sig, err)
			}
		})
	}
}
