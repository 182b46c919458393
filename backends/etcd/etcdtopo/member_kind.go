package etcdtopo

import (
	"context"

	"github.com/lockbench/lockbench/topologies"
)

// clusterMember is one member as the cluster drives it, whether it runs in this process
// (member) or in a child process of its own (processMember).
type clusterMember interface {
	topologies.Node
	dirPath() string
	dataDir() string
	peerURL() string
	clusterEntry() string
	// start launches the member without waiting for its cluster.
	start(state, initialCluster string) error
	// WaitReady waits until it has joined its cluster and serves clients.
	WaitReady(ctx context.Context) error
	// halt stops it before a restart and returns the raft ID it ran as.
	halt() (uint64, error)
	// close stops it for good.
	close()
	currentID() uint64
	Paused() bool
	// seenLeader is the raft leader it knows of (0: none).
	seenLeader() (uint64, error)
}

var (
	_ clusterMember = (*member)(nil)
	_ clusterMember = (*processMember)(nil)
)
