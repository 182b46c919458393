package container

import (
	"context"
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/topologies"
)

// RedisNode is one redis-server of a deployment whose backend joins the nodes itself (a
// Redis Cluster): the provider runs it exactly as a node of the Redis kinds (image,
// published port, mounted data dir, Kill, Pause, Restart, wire rules, cuts).
type RedisNode struct {
	Name string
	Role topologies.Role
	// PeerPorts is how many more ports only the other nodes dial (a cluster bus): leased
	// for the topology and carried by the wire rules like the client port, never published.
	PeerPorts int
	// Config returns the lines added to the provider's Redis config, given the node's
	// ports (the client port may change when another program took it first).
	Config func(port int, peerPorts []int) []string
}

// Group is the running containers of such a deployment, with the partitions of the
// Redis kinds' topologies.
type Group struct {
	t     *topology
	nodes []*node
}

// StartRedisNodes starts one container per node, in parallel, on a network made for
// them, and returns once each answers PING on its published port.
func StartRedisNodes(ctx context.Context, spec topologies.Spec, nodes []RedisNode) (*Group, error) {
	t, err := newRedisTopology(ctx, spec)
	if err != nil {
		return nil, err
	}
	g := &Group{t: t}
	if err := g.start(ctx, nodes); err != nil {
		t.Close()
		return nil, err
	}
	return g, nil
}

func (g *Group) start(ctx context.Context, nodes []RedisNode) error {
	t := g.t
	if err := t.createNetwork(ctx); err != nil {
		return err
	}
	extra := map[*node]func(int, []int) []string{}
	for _, rn := range nodes {
		n := t.newNode(rn.Name, rn.Role)
		var err error
		if n.peerPorts, err = t.distinctPorts(rn.PeerPorts); err != nil {
			return err
		}
		extra[n] = rn.Config
		g.nodes = append(g.nodes, n)
		// The rules wire every node of t.all(): the group's nodes are its masters and replicas.
		if rn.Role == topologies.RoleMaster {
			t.masters = append(t.masters, n)
		} else {
			t.replicas = append(t.replicas, n)
		}
	}
	return t.startAll(ctx, g.nodes, func(n *node) string {
		lines := t.serverConfig(n)
		if more := extra[n]; more != nil {
			lines += strings.Join(more(n.port, n.peerPorts), "\n") + "\n"
		}
		return lines
	})
}

// Nodes are the group's nodes in the order they were given.
func (g *Group) Nodes() []topologies.Node { return asNodes(g.nodes) }

// PeerPorts are the ports only n's peers dial, as leased for it at start.
func (g *Group) PeerPorts(n topologies.Node) ([]int, error) {
	for _, nd := range g.nodes {
		if topologies.Node(nd) == n {
			return append([]int(nil), nd.peerPorts...), nil
		}
	}
	return nil, fmt.Errorf("provider container: %s is not a node of this group", n.Name())
}

// Dir holds every node's dir (<Dir>/<node name>), mounted at the same path inside.
func (g *Group) Dir() string { return g.t.dir }

// Image is the image the nodes run.
func (g *Group) Image() string { return g.t.image }

// Cut, Heal and HealAll act on the group's links as on any container topology's.
func (g *Group) Cut(a, b topologies.Node) error  { return g.t.Cut(a, b) }
func (g *Group) Heal(a, b topologies.Node) error { return g.t.Heal(a, b) }
func (g *Group) HealAll() error                  { return g.t.HealAll() }

// Close removes every container, the network and the dir. Safe to call twice.
func (g *Group) Close() error {
	if err := g.t.Close(); err != nil {
		return fmt.Errorf("provider container: %w", err)
	}
	return nil
}

var _ topologies.Partitioner = (*Group)(nil)
