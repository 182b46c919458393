// Package all registers every store's descriptor: import it for its effect wherever
// topologies are specified, validated or started (cmd and tests).
package all

import (
	_ "github.com/lockbench/lockbench/backends/etcd"         // etcd
	_ "github.com/lockbench/lockbench/backends/postgres"     // postgres
	_ "github.com/lockbench/lockbench/backends/redis"        // single, replicated, sentinel, redlock
	_ "github.com/lockbench/lockbench/backends/rediscluster" // cluster
	_ "github.com/lockbench/lockbench/backends/zookeeper"    // zookeeper
)
