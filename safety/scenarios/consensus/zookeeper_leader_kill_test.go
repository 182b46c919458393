package consensus_test

import (
	"testing"

	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestZooKeeperLeaderKill: killing the leader of a ZooKeeper ensemble right after a
// grant lets nobody else in and the next czxid fence is larger; a lone server that loses
// its disk forgets the lock and reissues smaller fences (the claims assert both).
// A's lease is 30 s, since B may try for as long as it lasts: at 10 s, on a slower
// loaded machine, B's client did not get back to the restarted lone server in time.
func TestZooKeeperLeaderKill(t *testing.T) {
	t.Parallel()
	testenv.RequireServer(t, zookeeper.Kind)
	rep := labtest.RunScenario(t, "etcd-leader-kill", 2, lab.Params{"strategies": "zookeeper-3,zookeeper", "ttl": "30s"})
	names := map[string]*results.Variant{}
	for _, v := range rep.Variants {
		names[v.Name] = v
	}
	for _, want := range []string{"zookeeper-3-leader-kill", "zookeeper-lone-member-disk-loss"} {
		if v := names[want]; v == nil || v.Tally.Judged == 0 {
			t.Errorf("%s: not run or nothing judged (%v)", want, v)
		}
	}
}
