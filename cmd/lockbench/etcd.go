package main

// The etcd strategies (etcd, etcd-3 and their unsafe no-fsync variants) and their
// embedded-etcd provider register on import: `lockbench run` accepts them and
// `lockbench safety` can run the etcd scenarios.
import _ "github.com/lockbench/lockbench/locks/etcdlock"
