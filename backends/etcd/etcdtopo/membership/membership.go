// Package membership replaces a member of an etcd cluster, as an operator replaces a
// lost disk: the old identity removed and the same peer address added back, through
// the members still running. It imports nothing of lockbench, so that every etcd
// provider can use it (the container provider cannot import etcdtopo).
package membership

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// Replace removes member oldID and adds peerURL back as a new member, through the
// client endpoints of the members still running.
func Replace(ctx context.Context, endpoints []string, oldID uint64, peerURL string) error {
	if len(endpoints) == 0 {
		return errors.New("no other member runs")
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: endpoints, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
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
		_, err := cli.MemberAdd(ctx, []string{peerURL})
		return err
	})
	if err != nil {
		return fmt.Errorf("member add %s: %w", peerURL, err)
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
