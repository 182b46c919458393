// Package clustercontainer runs a Redis Cluster with the container provider: each node
// a redis-server container of topologies/container (same image, published port, kill,
// pause, restart and partitions as the other Redis kinds), joined by the backend's own
// forming. It is a package of its own so that only programs that link the container
// provider carry it (cmd/lockbench, topologies/testenv).
package clustercontainer

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/backends/rediscluster"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/container"
)

// ProviderName is the provider --provider container picks for clusters.
const ProviderName = "rediscluster-container"

func init() {
	topologies.RegisterProvider(Provider{})
	topologies.JoinFamily("container", rediscluster.Kind, ProviderName)
}

// Provider starts clusters in containers.
type Provider struct{}

func (Provider) Name() string { return ProviderName }

// Available is the container provider's: nil when its engine answers.
func (Provider) Available(ctx context.Context) error { return container.Provider{}.Available(ctx) }

// Start launches spec's cluster, one container per node, and returns once every slot
// is served and every replica acknowledges its master's writes.
func (Provider) Start(ctx context.Context, spec topologies.Spec) (topologies.Topology, error) {
	spec, err := rediscluster.CheckSpec(ProviderName, spec)
	if err != nil {
		return nil, err
	}
	names := rediscluster.Names(spec)
	nodes := make([]container.RedisNode, len(names))
	for i, nm := range names {
		nodes[i] = container.RedisNode{Name: nm.Name, Role: nm.Role, PeerPorts: 1, Config: func(_ int, peers []int) []string {
			// Every node speaks of 127.0.0.1:port, as the Redis kinds' do: the wire rules
			// carry it to the right container, and a client on the host follows MOVED there.
			return append(rediscluster.NodeConfig(spec, peers[0]), "cluster-announce-ip 127.0.0.1")
		}}
	}
	g, err := container.StartRedisNodes(ctx, spec, nodes)
	if err != nil {
		return nil, err
	}
	var layout rediscluster.Layout
	for i, n := range g.Nodes() {
		peers, err := g.PeerPorts(n)
		if err != nil {
			g.Close()
			return nil, err
		}
		m := rediscluster.Member{Node: n, Bus: peers[0], Follows: names[i].Follows}
		if names[i].Role == topologies.RoleMaster {
			layout.Masters = append(layout.Masters, m)
		} else {
			layout.Replicas = append(layout.Replicas, m)
		}
	}
	c, err := rediscluster.Assemble(ctx, spec, ProviderName, g.Dir(), layout, g.Close)
	if err != nil {
		return nil, fmt.Errorf("provider %s: %w", ProviderName, err)
	}
	return &Cluster{Cluster: c, group: g}, nil
}

// Cluster is a cluster whose nodes are containers: a rediscluster.Cluster whose links
// can be cut.
type Cluster struct {
	*rediscluster.Cluster
	group *container.Group
}

// Image is the image the nodes run.
func (c *Cluster) Image() string { return c.group.Image() }

func (c *Cluster) Cut(a, b topologies.Node) error  { return c.group.Cut(a, b) }
func (c *Cluster) Heal(a, b topologies.Node) error { return c.group.Heal(a, b) }
func (c *Cluster) HealAll() error                  { return c.group.HealAll() }

var _ topologies.Partitioner = (*Cluster)(nil)
