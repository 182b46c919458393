package container_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
	. "github.com/lockbench/lockbench/topologies/container"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestHelperHoldContainers is not a test: run as a child by the tests below, it starts a
// replicated topology in containers, prints its handles and waits to be signalled.
func TestHelperHoldContainers(t *testing.T) {
	if os.Getenv("LOCKBENCH_HELPER") != "hold-containers" {
		t.Skip("helper process only")
	}
	holdForParent(backend.Spec{Kind: topologies.Replicated, Replicas: 1})
}

// holdForParent is a helper child's work: it starts spec in containers, prints the
// handles its parent reads (READY network id,id...) and waits to be signalled.
func holdForParent(spec backend.Spec) {
	topo, err := Provider{}.Start(context.Background(), spec)
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	ids, network := Handles(topo)
	fmt.Printf("READY %s %s\n", network, strings.Join(ids, ","))
	time.Sleep(2 * time.Minute)
	os.Exit(3) // never reached when the parent signals us
}

func holdContainersInChild(t *testing.T) (*exec.Cmd, []string, string) {
	return handlesInChild(t, "TestHelperHoldContainers", "LOCKBENCH_HELPER=hold-containers")
}

// handlesInChild runs the helper test with env as a child (holdForParent), and returns
// it with the container ids and the network it holds.
func handlesInChild(t *testing.T, test, env string) (*exec.Cmd, []string, string) {
	requireEngine(t)
	cmd, fields := testenv.HoldInChild(t, test, env, 2)
	return cmd, strings.Split(fields[1], ","), fields[0]
}

// waitRemoved polls until none of ids nor network exist, with a deadline.
func waitRemoved(t *testing.T, ids []string, network string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		left := Existing(ids, network)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still there after 60 s: %v", left)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestContainerSignalRemovesEverything(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel() // each child owns its containers and removes them itself
			cmd, ids, network := holdContainersInChild(t)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			if status, _ := err.(*exec.ExitError); status == nil || !status.Sys().(syscall.WaitStatus).Signaled() {
				t.Errorf("helper should die of %v, got %v", sig, err)
			}
			waitRemoved(t, ids, network)
		})
	}
}

func TestContainerSIGKILLedOwnerIsSweptAtNextStart(t *testing.T) {
	cmd, ids, network := holdContainersInChild(t)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if len(Existing(ids, network)) == 0 {
		t.Fatal("a SIGKILLed owner's containers vanished by themselves: nothing to sweep")
	}
	startContainers(t, backend.Spec{Kind: topologies.Single}) // sweeps at start
	waitRemoved(t, ids, network)
}
