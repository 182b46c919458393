package failover_test

import (
	// The tests fail over Redis and Redis Cluster only: they register those two stores
	// (testenv starts what its caller registered; a test binary that links every store
	// links more).
	_ "github.com/lockbench/lockbench/backends/redis/redisstore"
	_ "github.com/lockbench/lockbench/backends/rediscluster/clusterstore"
)
