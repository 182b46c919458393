package main

// The etcd strategies (etcd, etcd-3 and their unsafe no-fsync variants) and both etcd
// providers register on import: `lockbench run` accepts them (`--provider etcd-process`,
// the default for etcd, or `--provider embedded-etcd`) and `lockbench safety` can run
// the etcd scenarios. The import also lets this binary run as one out-of-process etcd
// member when the etcd-process provider re-executes it (etcdtopo's init takes over
// before main).
import _ "github.com/lockbench/lockbench/backends/etcd/etcdlock"
