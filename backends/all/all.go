// Package all registers every store, one import a store (backends/store says what a
// store registers). Import it for its effect wherever topologies are specified,
// validated or started, or scenarios run on them (cmd, and the tests that start servers).
package all

import (
	_ "github.com/lockbench/lockbench/backends/etcd/etcdstore"
	_ "github.com/lockbench/lockbench/backends/postgres/pgstore"
	_ "github.com/lockbench/lockbench/backends/redis/redisstore"
	_ "github.com/lockbench/lockbench/backends/rediscluster/clusterstore"
	_ "github.com/lockbench/lockbench/backends/zookeeper/zkstore"
)
