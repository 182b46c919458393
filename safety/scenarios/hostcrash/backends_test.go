package hostcrash_test

// The tests start topologies: they register every store, as cmd/lockbench does
// (testenv starts what its caller registered), and etcd's strategies.
import (
	_ "github.com/lockbench/lockbench/backends/all"
	_ "github.com/lockbench/lockbench/backends/etcd/etcdlock"
)
