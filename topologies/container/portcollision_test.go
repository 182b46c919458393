package container_test

import (
	"net"
	"strconv"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/portlease"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestContainerRetriesAHostPortTakenBeforeItIsPublished: another program binds the host
// port the provider leased for a node before the engine publishes it; the engine's
// refusal must send the node to a new port, and Close must end every lease.
func TestContainerRetriesAHostPortTakenBeforeItIsPublished(t *testing.T) {
	t.Parallel()
	requireEngine(t)
	stolen := testenv.StealLeases(t, 1)
	topo := startContainers(t, backend.Spec{Kind: topologies.Single})
	taken := stolen()
	if len(taken) != 1 {
		t.Fatalf("stole %v: the provider leased no port", taken)
	}
	n := topo.Masters()[0]
	_, p, _ := net.SplitHostPort(n.Addr())
	if port, _ := strconv.Atoi(p); port == taken[0] {
		t.Fatalf("%s published on %d, the port another program holds", n.Name(), port)
	}
	lockOn(t, n.Addr())
	port, _ := strconv.Atoi(p)
	if err := topo.Close(); err != nil {
		t.Fatal(err)
	}
	if portlease.Held(port) {
		t.Errorf("port %d still leased after Close", port)
	}
}
