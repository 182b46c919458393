// Package consensus reproduces what the consensus services keep and lose: etcd's and
// ZooKeeper's leader killed right after a grant, a lone member that loses its disk
// (etcd-leader-kill), and fences that go backwards when a store forgets a write
// (fence-regression, on Redis failover and on a ZooKeeper follower restarted empty).
package consensus
