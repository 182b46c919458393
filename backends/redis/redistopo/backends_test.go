package redistopo_test

import (
	// The tests start Redis topologies, Redis Cluster among them, only: they register
	// those two stores (testenv starts what its caller registered; a test binary that
	// links every store links more).
	_ "github.com/lockbench/lockbench/backends/redis/redisstore"
	_ "github.com/lockbench/lockbench/backends/rediscluster/clusterstore"
)
