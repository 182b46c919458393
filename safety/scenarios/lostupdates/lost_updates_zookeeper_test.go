package lostupdates_test

import (
	"testing"

	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestLostUpdatesZooKeeper: a ZooKeeper holder paused past its session in the middle of
// a change: the czxid fence refuses its stale write, read-modify-write loses B's change
// (the claims assert both). A 3 s session: at the default 500 ms, load 60, A's first
// change outlasted its lease and the trials were errors ("release: A's first lease").
func TestLostUpdatesZooKeeper(t *testing.T) {
	t.Parallel()
	testenv.RequireServer(t, zookeeper.Kind)
	runLostUpdates(t, 2, lab.Params{"breaks": "pause", "strategies": "zookeeper", "fences": "lock", "guards": "fenced,read-modify-write",
		"ttl": "3s"})
}
