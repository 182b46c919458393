package etcdtopo_test

import (
	// The tests start topologies: they register every store, as cmd/lockbench does
	// (testenv starts what its caller registered).
	_ "github.com/lockbench/lockbench/backends/all"
	// The embedded provider's members run in the test binary: it links etcd's server.
	_ "github.com/lockbench/lockbench/backends/etcd/etcdrun"
)
