package rediscluster

import (
	"context"
	"sync"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
)

// Cluster is a running Redis Cluster, whoever runs its nodes: master-i serves the i-th
// share of the slots at start, and replica-i-j replicates it.
type Cluster struct {
	spec      backend.Spec
	provider  string
	dir       string
	layout    Layout
	stop      func() error // stops every node and removes what they left
	closeOnce sync.Once
	closeErr  error
}

// Assemble forms the started nodes of layout into a cluster (CLUSTER MEET, the slots,
// the replicas) and returns once it serves: every provider's last step. provider names
// the provider, dir holds the nodes' dirs, stop ends them all; on failure Assemble calls it.
func Assemble(ctx context.Context, spec backend.Spec, provider, dir string, layout Layout,
	stop func() error) (*Cluster, error) {
	c := &Cluster{spec: spec, provider: provider, dir: dir, layout: layout, stop: stop}
	if err := layout.form(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *Cluster) Spec() backend.Spec           { return c.spec }
func (c *Cluster) Provider() string             { return c.provider }
func (c *Cluster) Dir() string                  { return c.dir }
func (c *Cluster) Masters() []topologies.Node   { return asNodes(c.layout.Masters) }
func (c *Cluster) Replicas() []topologies.Node  { return asNodes(c.layout.Replicas) }
func (c *Cluster) Sentinels() []topologies.Node { return nil }
func (c *Cluster) Nodes() []topologies.Node     { return asNodes(c.layout.all()) }

// ReplicasOf are the replicas that followed master-i at start (a failover may have
// swapped their roles since: ask the servers).
func (c *Cluster) ReplicasOf(i int) []topologies.Node {
	var out []topologies.Node
	for _, r := range c.layout.Replicas {
		if r.Follows == i {
			out = append(out, r.Node)
		}
	}
	return out
}

// WaitServing waits until the cluster serves again (see Layout.WaitServing).
func (c *Cluster) WaitServing(ctx context.Context, limit time.Duration) error {
	return c.layout.WaitServing(ctx, limit)
}

func asNodes(ms []Member) []topologies.Node {
	out := make([]topologies.Node, len(ms))
	for i, m := range ms {
		out[i] = m.Node
	}
	return out
}

// Close stops every node and removes the cluster's dir. Safe twice.
func (c *Cluster) Close() error {
	c.closeOnce.Do(func() { c.closeErr = c.stop() })
	return c.closeErr
}
