// Package all registers every store: its descriptor, its safety adapter and its
// container rendering (the process providers register with the strategies, which carry
// the stores' clients). Import it for its
// effect wherever topologies are specified, validated or started, or scenarios run on
// them (cmd, and the tests that start servers).
package all

import (
	_ "github.com/lockbench/lockbench/backends/etcd" // etcd
	// etcd in containers (its members need etcdtopo linked: the strategies link it)
	_ "github.com/lockbench/lockbench/backends/etcd/etcdcontainer"
	_ "github.com/lockbench/lockbench/backends/etcd/etcdexternal"    // etcd's role in an external deployment file
	_ "github.com/lockbench/lockbench/backends/etcd/etcdlab"         // etcd's safety adapter
	_ "github.com/lockbench/lockbench/backends/postgres"             // postgres
	_ "github.com/lockbench/lockbench/backends/postgres/pgcontainer" // postgres in containers
	_ "github.com/lockbench/lockbench/backends/redis"                // single, replicated, sentinel, redlock
	_ "github.com/lockbench/lockbench/backends/redis/rediscontainer" // them in containers
	_ "github.com/lockbench/lockbench/backends/redis/redisexternal"  // their roles in an external deployment file
	_ "github.com/lockbench/lockbench/backends/redis/redislab"       // their safety adapter
	_ "github.com/lockbench/lockbench/backends/rediscluster"         // cluster
	// cluster in containers (the descriptor would carry testcontainers everywhere)
	_ "github.com/lockbench/lockbench/backends/rediscluster/clustercontainer"
	// cluster's safety adapter (a descriptor must not import the lab)
	_ "github.com/lockbench/lockbench/backends/rediscluster/clusterlab"
	_ "github.com/lockbench/lockbench/backends/zookeeper"             // zookeeper
	_ "github.com/lockbench/lockbench/backends/zookeeper/zkcontainer" // ZooKeeper in containers
	_ "github.com/lockbench/lockbench/backends/zookeeper/zklab"       // ZooKeeper's safety adapter
)
