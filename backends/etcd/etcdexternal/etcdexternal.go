// Package etcdexternal is etcd's part of the external provider's deployment file (key
// etcd: endpoints, auth): the read-only version probe and the cleanup of the run's
// key range on a cluster lockbench does not own.
package etcdexternal

import (
	"context"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/external"
)

// Store is etcd's part of the deployment file.
var Store = external.MembersStore(etcd.Kind, "etcd", probe, cleanup)

// client connects to the members (the servers' Masters) with the deployment's user and TLS.
func client(s external.Servers) (*clientv3.Client, error) {
	return clientv3.New(clientv3.Config{
		Endpoints: topologies.Addrs(s.Masters), DialTimeout: external.ProbeTimeout,
		Username: s.Access.Username, Password: s.Access.Password, TLS: s.Access.TLS,
		Logger: zap.NewNop(),
	})
}

// probe reads each endpoint's server version (a read-only maintenance call).
func probe(ctx context.Context, s *external.Servers) ([]resultsdir.ExternalServer, error) {
	c, err := client(*s)
	if err != nil {
		return nil, fmt.Errorf("provider external: etcd: %w", err)
	}
	defer c.Close()
	var out []resultsdir.ExternalServer
	for _, n := range s.Masters {
		st, err := c.Status(ctx, n.Addr())
		if err != nil {
			return nil, fmt.Errorf("provider external: %s at %s does not answer: %w", n.Name(), n.Addr(), err)
		}
		out = append(out,
			resultsdir.ExternalServer{Role: string(n.Role()), Name: n.Name(), Addr: n.Addr(), Version: st.Version})
	}
	return out, nil
}

// cleanup deletes the run's key range.
func cleanup(ctx context.Context, s external.Servers, prefix string) (int64, error) {
	c, err := client(s)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	resp, err := c.Delete(ctx, prefix, clientv3.WithPrefix())
	if err != nil {
		return 0, fmt.Errorf("delete keys %s* on etcd: %w", prefix, err)
	}
	return resp.Deleted, nil
}
