package clustercontainer_test

import (
	// The tests start Redis Cluster topologies only: they register that one store
	// (testenv starts what its caller registered; a test binary that links every store
	// links more).
	_ "github.com/lockbench/lockbench/backends/rediscluster/clusterstore"
	// They run containers: the engine's client, as cmd/lockbench links it.
	_ "github.com/lockbench/lockbench/topologies/container/docker"
)
