package topologies_test

// The tests start Redis topologies only: they register Redis's store, as cmd/lockbench
// registers every store (testenv starts what its caller registered).
import _ "github.com/lockbench/lockbench/backends/redis/redisstore"
