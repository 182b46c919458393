package etcdtopo

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/lockbench/lockbench/backends/etcd/etcdtopo/membership"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/forgetful"
)

// restartMember kills m if it runs and starts it again behind the same client and peer
// addresses. RestartFromDisk and RestartWithSnapshot both start from its data dir: etcd
// persists every acknowledged write (unless UnsafeNoFsync), there is no separate
// snapshot to take. RestartEmpty deletes the data dir: a lone member starts a new
// cluster, its revisions counting from 1 again; a member of a larger cluster is removed
// and re-added through the others, as an operator replaces a lost disk, and catches up
// from the leader. RestartAfterHostCrash starts from what a forgetful disk kept of the
// data dir (a process member's, Spec.ForgetfulDisk).
func restartMember(ctx context.Context, c *Cluster, m clusterMember, mode topologies.RestartMode) error {
	var disk *forgetful.Disk
	if d, ok := m.(interface{ forgetfulDisk() *forgetful.Disk }); ok {
		disk = d.forgetfulDisk()
	}
	if mode == topologies.RestartAfterHostCrash && disk == nil {
		return topologies.RefuseHostCrash(m.Name(), mode) // before the kill: the member keeps running
	}
	oldID, err := m.halt()
	if err != nil {
		return err
	}
	state := "existing"
	if mode == topologies.RestartAfterHostCrash {
		if err := disk.Crash(); err != nil {
			return fmt.Errorf("%s: %w", m.Name(), err)
		}
	}
	if mode == topologies.RestartEmpty {
		if err := os.RemoveAll(m.dataDir()); err != nil {
			return fmt.Errorf("%s: forget data: %w", m.Name(), err)
		}
		if len(c.members) == 1 {
			state = "new"
		} else if err := c.replace(ctx, m, oldID); err != nil {
			return fmt.Errorf("%s: re-add with an empty disk: %w", m.Name(), err)
		}
	}
	if err := m.start(state, c.initialCluster()); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := m.WaitReady(ctx); err != nil {
		return err
	}
	return settle(m)
}

// replace removes m's old identity from the cluster and adds it back as a new member
// with the same peer address, through the members still running.
func (c *Cluster) replace(ctx context.Context, m clusterMember, oldID uint64) error {
	var others []string
	for _, o := range c.members {
		if o != m && o.Running() {
			others = append(others, o.Addr())
		}
	}
	return membership.Replace(ctx, others, oldID, m.peerURL())
}
