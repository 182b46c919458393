package etcdstore_test

import (
	"testing"

	_ "github.com/lockbench/lockbench/backends/etcd/etcdstore"
	"github.com/lockbench/lockbench/safety/lab"
)

// With etcd's registration alone imported, etcd's stores carry their kind's
// declarations: the consensus scenarios take them.
func TestEtcdStoresFitTheConsensusScenarios(t *testing.T) {
	for _, strategy := range []string{"etcd", "etcd-3"} {
		st, err := lab.StoreFor(strategy)
		if err != nil {
			t.Fatalf("%s: %v", strategy, err)
		}
		if !lab.IsConsensusFailover(st) {
			t.Errorf("%s: not a consensus store that can fail over", strategy)
		}
	}
}
