package etcdtopo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/topologies"
)

// restartMember kills m if it runs and starts it again behind the same client and peer
// addresses. RestartFromDisk and RestartWithSnapshot both start from its data dir: etcd
// persists every acknowledged write (unless UnsafeNoFsync), there is no separate
// snapshot to take. RestartEmpty deletes the data dir: a lone member starts a new
// cluster, its revisions counting from 1 again; a member of a larger cluster is removed
// and re-added through the others, as an operator replaces a lost disk, and catches up
// from the leader.
func restartMember(ctx context.Context, c *Cluster, m clusterMember, mode topologies.RestartMode) error {
	oldID, err := m.halt()
	if err != nil {
		return err
	}
	state := "existing"
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
	return m.WaitReady(ctx)
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
	if len(others) == 0 {
		return errors.New("no other member runs")
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: others, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		return err
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	err = retryUnhealthy(ctx, func() error {
		_, err := cli.MemberRemove(ctx, oldID)
		if errors.Is(err, rpctypes.ErrMemberNotFound) {
			return nil // an earlier attempt removed it
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("member remove %x: %w", oldID, err)
	}
	err = retryUnhealthy(ctx, func() error {
		_, err := cli.MemberAdd(ctx, []string{m.peerURL()})
		return err
	})
	if err != nil {
		return fmt.Errorf("member add %s: %w", m.peerURL(), err)
	}
	return nil
}

// retryUnhealthy retries a membership change that etcd's strict reconfiguration check
// refuses until the remaining members have been connected for 5 s (HealthInterval).
func retryUnhealthy(ctx context.Context, change func() error) error {
	for {
		err := change()
		if !errors.Is(err, rpctypes.ErrUnhealthy) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%v: %w", err, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}
