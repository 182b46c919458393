package container_test

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	. "github.com/lockbench/lockbench/topologies/container"
)

const storeHelperEnv = "LOCKBENCH_STORE_HELPER"

// TestHelperHoldStore is not a test: run as a child by the tests below, it starts the
// store named in its environment (kind-members) in containers, prints its handles and
// waits to be signalled.
func TestHelperHoldStore(t *testing.T) {
	kind, members, ok := strings.Cut(os.Getenv(storeHelperEnv), "-")
	if !ok {
		t.Skip("helper process only")
	}
	m, _ := strconv.Atoi(members)
	holdForParent(backend.Spec{Kind: backend.Kind(kind), Members: m})
}

func holdStoreInChild(t *testing.T, store string) (*exec.Cmd, []string, string) {
	return handlesInChild(t, "TestHelperHoldStore", storeHelperEnv+"="+store)
}

// TestContainerStoreSignalRemovesEverything: SIGTERM of a program holding a store's
// containers (etcd members being that program re-executed) removes them and the network.
func TestContainerStoreSignalRemovesEverything(t *testing.T) {
	for _, store := range []string{"etcd-3", "zookeeper-1", "postgres-0"} {
		t.Run(store, func(t *testing.T) {
			t.Parallel() // each child owns its containers and removes them itself
			cmd, ids, network := holdStoreInChild(t, store)
			if len(ids) == 0 || ids[0] == "" {
				t.Fatal("the helper reported no container")
			}
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			waitRemoved(t, ids, network)
		})
	}
}

// TestContainerStoreSIGKILLedOwnerIsSweptAtNextStart: an etcd cluster whose owner was
// SIGKILLed keeps running in its containers until the next Start removes it.
func TestContainerStoreSIGKILLedOwnerIsSweptAtNextStart(t *testing.T) {
	cmd, ids, network := holdStoreInChild(t, "etcd-3")
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if len(Existing(ids, network)) == 0 {
		t.Fatal("a SIGKILLed owner's containers vanished by themselves: nothing to sweep")
	}
	startContainers(t, backend.Spec{Kind: etcd.Kind})
	waitRemoved(t, ids, network)
}
