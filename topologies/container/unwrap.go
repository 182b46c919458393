package container

import "github.com/lockbench/lockbench/topologies"

// base is the container topology itself: a store's topology, which embeds its
// Topology, has it too.
func (t *topology) base() *topology { return t }

// unwrap is the container topology under a store's topology, or itself; nil when topo
// is not a container topology.
func unwrap(topo topologies.Topology) *topology {
	if c, ok := topo.(interface{ base() *topology }); ok {
		return c.base()
	}
	return nil
}
