// Package hostcrash holds the safety scenario of a one-node store whose host loses
// power right after a grant or a commit: it restarts on what its disk had fsynced, and
// each policy (Redis's appendfsync, etcd's and ZooKeeper's fsynced logs, PostgreSQL's
// fsync and synchronous_commit) keeps the acknowledged lock or change, or loses it.
package hostcrash
