package hostcrash_test

// The tests start topologies: they register every store, as cmd/lockbench does
// (testenv starts what its caller registered), etcd's and ZooKeeper's strategies and
// PostgreSQL's process provider.
import (
	_ "github.com/lockbench/lockbench/backends/all"
	_ "github.com/lockbench/lockbench/backends/etcd/etcdlock"
	_ "github.com/lockbench/lockbench/backends/postgres/pgtopo"
	_ "github.com/lockbench/lockbench/backends/zookeeper/zklock"
)
