package clock_test

// The tests start topologies of the stores they name, Redis's and the cluster's, and
// refuse one of ZooKeeper's: they register those stores, as cmd/lockbench registers
// every store (testenv starts what its caller registered).
import (
	_ "github.com/lockbench/lockbench/backends/redis/redisstore"
	_ "github.com/lockbench/lockbench/backends/rediscluster/clusterstore"
	_ "github.com/lockbench/lockbench/backends/zookeeper/zkstore"
)
