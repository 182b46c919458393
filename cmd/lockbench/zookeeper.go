package main

// The ZooKeeper strategies (zookeeper, zookeeper-3) and their zookeeper-process provider
// register on import: `lockbench run` accepts them and the presets measure them beside
// etcd.
import _ "github.com/lockbench/lockbench/backends/zookeeper/zklock"
