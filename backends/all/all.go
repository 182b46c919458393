// Package all registers every store: its descriptor, and the safety adapter and
// container provider of a store that keeps them in its own folder. Import it for its
// effect wherever topologies are specified, validated or started, or scenarios run on
// them (cmd, and the tests that start servers).
package all

import (
	_ "github.com/lockbench/lockbench/backends/etcd"                          // etcd
	_ "github.com/lockbench/lockbench/backends/etcd/etcdlab"                  // etcd's safety adapter
	_ "github.com/lockbench/lockbench/backends/postgres"                      // postgres
	_ "github.com/lockbench/lockbench/backends/redis"                         // single, replicated, sentinel, redlock
	_ "github.com/lockbench/lockbench/backends/rediscluster"                  // cluster
	_ "github.com/lockbench/lockbench/backends/rediscluster/clustercontainer" // cluster in containers (the descriptor would carry testcontainers everywhere)
	_ "github.com/lockbench/lockbench/backends/rediscluster/clusterlab"       // cluster's safety adapter (a descriptor must not import the lab)
	_ "github.com/lockbench/lockbench/backends/zookeeper"                     // zookeeper
	_ "github.com/lockbench/lockbench/backends/zookeeper/zklab"               // ZooKeeper's safety adapter
)
