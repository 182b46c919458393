package pgtopo_test

import (
	// The tests start PostgreSQL topologies only: they register that store, and Redis's,
	// whose kinds the PostgreSQL provider must refuse (testenv starts what its caller
	// registered; a test binary that links every store links more).
	_ "github.com/lockbench/lockbench/backends/postgres/pgstore"
	_ "github.com/lockbench/lockbench/backends/redis/redisstore"
)
