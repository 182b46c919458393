package external

import (
	"context"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
)

// etcdClient connects to the cluster with the deployment's user and TLS.
func (t *topology) etcdClient() (*clientv3.Client, error) {
	return clientv3.New(clientv3.Config{
		Endpoints: topologies.Addrs(t.masters), DialTimeout: probeTimeout,
		Username: t.access.Username, Password: t.access.Password, TLS: t.access.TLS,
		Logger: zap.NewNop(),
	})
}

// probeEtcd reads each endpoint's server version (a read-only maintenance call).
func (t *topology) probeEtcd(ctx context.Context) ([]resultsdir.ExternalServer, error) {
	c, err := t.etcdClient()
	if err != nil {
		return nil, fmt.Errorf("provider external: etcd: %w", err)
	}
	defer c.Close()
	var out []resultsdir.ExternalServer
	for _, n := range t.masters {
		st, err := c.Status(ctx, n.Addr())
		if err != nil {
			return nil, fmt.Errorf("provider external: %s at %s does not answer: %w", n.Name(), n.Addr(), err)
		}
		out = append(out, resultsdir.ExternalServer{Role: string(n.Role()), Name: n.Name(), Addr: n.Addr(), Version: st.Version})
	}
	return out, nil
}

// cleanupEtcd deletes the run's key range.
func (t *topology) cleanupEtcd(ctx context.Context) (int64, error) {
	c, err := t.etcdClient()
	if err != nil {
		return 0, err
	}
	defer c.Close()
	resp, err := c.Delete(ctx, t.prefix, clientv3.WithPrefix())
	if err != nil {
		return 0, fmt.Errorf("delete keys %s* on etcd: %w", t.prefix, err)
	}
	return resp.Deleted, nil
}
