package main

import (
	// Every store's descriptor registers on import (backends/all): the topology kinds
	// this binary specifies, validates and starts are the ones registered.
	_ "github.com/lockbench/lockbench/backends/all"
	// lockbench is the program etcd members run as (and the embedded provider's
	// server): the one program that links etcd's server.
	_ "github.com/lockbench/lockbench/backends/etcd/etcdrun"
	// The container provider's engine client: linked here and where tests start containers.
	_ "github.com/lockbench/lockbench/topologies/container/docker"
)
