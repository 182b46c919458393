package container

import "github.com/lockbench/lockbench/topologies"

// unwrap is the container topology under a store's wrapper (pgServer, zkEnsemble,
// etcdCluster) or itself; nil when topo is not a container topology.
func unwrap(topo topologies.Topology) *topology {
	switch t := topo.(type) {
	case *topology:
		return t
	case *pgServer:
		return t.topology
	case *zkEnsemble:
		return t.topology
	case *etcdCluster:
		return t.topology
	}
	return nil
}
