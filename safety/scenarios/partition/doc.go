// Package partition reproduces what a network partition does to each kind of lock
// (they need a provider that can cut the network, such as containers): the Sentinel
// master cut off with client A while a replica is promoted (sentinel-split-brain), a
// Redis Cluster's key master cut off with A while the majority promotes its replica
// (cluster-split-brain), a Redlock client cut from a minority of nodes and two clients
// on different majorities (redlock-partition), and a consensus leader cut from its
// followers (consensus-partition).
package partition
