package partition_test

import (
	// The tests start topologies: they register every store, as cmd/lockbench does
	// (testenv starts what its caller registered).
	_ "github.com/lockbench/lockbench/backends/all"
	// The partitions of consensus, cluster and sentinel run in containers: the engine's
	// client, as cmd/lockbench links it.
	_ "github.com/lockbench/lockbench/topologies/container/docker"
)
