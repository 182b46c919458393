package redlock_test

// The tests start Redis topologies only: they register that one store (testenv starts
// what its caller registered; a test binary that links every store links more).
import _ "github.com/lockbench/lockbench/backends/redis/redisstore"
