package etcdtopo_test

import (
	// The tests start etcd topologies only: they register that store, and Redis's, whose
	// kinds the etcd providers must refuse (testenv starts what its caller registered; a
	// test binary that links every store links more).
	_ "github.com/lockbench/lockbench/backends/etcd/etcdstore"
	_ "github.com/lockbench/lockbench/backends/redis/redisstore"
	// The embedded provider's members run in the test binary: it links etcd's server.
	_ "github.com/lockbench/lockbench/backends/etcd/etcdrun"
)
