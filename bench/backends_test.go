package bench_test

import (
	// The tests start topologies: they register every store, as cmd/lockbench does
	// (testenv starts what its caller registered).
	_ "github.com/lockbench/lockbench/backends/all"
	// `go test -bench ./bench` runs etcd's members as this test binary, and in it
	// (embedded-etcd): it links etcd's server, as lockbench does.
	_ "github.com/lockbench/lockbench/backends/etcd/etcdrun"
)
