// Package clustercontainer runs a Redis Cluster with the container provider: each node
// a redis-server container of backends/redis/rediscontainer (same image, published port,
// kill, pause, restart and partitions as the other Redis kinds), joined by the backend's
// own forming. It is a package of its own so that only programs that link the container
// provider carry it (cmd/lockbench, topologies/testenv).
package clustercontainer

import (
	"context"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/rediscontainer"
	"github.com/lockbench/lockbench/backends/rediscluster"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/container"
)

// ProviderName is the provider --provider container picks for clusters.
const ProviderName = "rediscluster-container"

// Provider starts clusters in containers.
type Provider struct{}

func (Provider) Name() string { return ProviderName }

// Available is the container provider's: nil when its engine answers.
func (Provider) Available(ctx context.Context) error { return container.Provider{}.Available(ctx) }

// Start launches spec's cluster, one container per node, and returns once every slot
// is served and every replica acknowledges its master's writes.
func (Provider) Start(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
	spec, err := rediscluster.CheckSpec(ProviderName, spec)
	if err != nil {
		return nil, err
	}
	if err := topologies.RefuseOtherFlavour(ProviderName, spec); err != nil {
		return nil, err
	}
	return container.Deploy(ctx, spec, func(ctx context.Context, d *container.Topology) (topologies.Topology, error) {
		return assemble(ctx, spec, d)
	})
}

// assemble starts the cluster's nodes on d as Redis's own containers, then joins them.
func assemble(ctx context.Context, spec backend.Spec, d *container.Topology) (topologies.Topology, error) {
	image, err := rediscontainer.Image(ctx, false)
	if err != nil {
		return nil, err
	}
	names := rediscluster.Names(spec)
	nodes := make([]rediscontainer.Node, len(names))
	for i, nm := range names {
		nodes[i] = rediscontainer.Node{Name: nm.Name, Role: nm.Role, PeerPorts: 1, Config: func(_ int, peers []int) []string {
			// Every node speaks of 127.0.0.1:port, as the Redis kinds' do: the wire rules
			// carry it to the right container, and a client on the host follows MOVED there.
			return append(rediscluster.NodeConfig(spec, peers[0]), "cluster-announce-ip 127.0.0.1")
		}}
	}
	servers, err := rediscontainer.AddNodes(d, image, nodes)
	if err != nil {
		return nil, err
	}
	if err := d.Start(ctx); err != nil {
		return nil, err
	}
	var layout rediscluster.Layout
	for i, s := range servers {
		m := rediscluster.Member{Node: s, Bus: s.PeerPorts()[0], Follows: names[i].Follows}
		if names[i].Role == topologies.RoleMaster {
			layout.Masters = append(layout.Masters, m)
		} else {
			layout.Replicas = append(layout.Replicas, m)
		}
	}
	c, err := rediscluster.Assemble(ctx, spec, ProviderName, d.Dir(), layout, d.Close)
	if err != nil {
		return nil, err
	}
	return &Cluster{Cluster: c, d: d}, nil
}

// Cluster is a cluster whose nodes are containers: a rediscluster.Cluster whose links
// can be cut.
type Cluster struct {
	*rediscluster.Cluster
	d *container.Topology
}

// Image is the image the nodes run.
func (c *Cluster) Image() string { return c.d.Image() }

func (c *Cluster) Cut(a, b topologies.Node) error  { return c.d.Cut(a, b) }
func (c *Cluster) Heal(a, b topologies.Node) error { return c.d.Heal(a, b) }
func (c *Cluster) HealAll() error                  { return c.d.HealAll() }

var _ topologies.Partitioner = (*Cluster)(nil)
