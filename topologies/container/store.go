package container

import (
	"context"
	"fmt"
	"os"

	"github.com/lockbench/lockbench/topologies"
)

// startStore starts a PostgreSQL, ZooKeeper or etcd topology: one container per server
// on a network made for it, labelled, swept and removed as the Redis ones are.
func startStore(ctx context.Context, spec topologies.Spec) (topologies.Topology, error) {
	if len(spec.Clocks) > 0 {
		return nil, fmt.Errorf("provider container: clocks: %s nodes in containers run on true time", spec.Kind)
	}
	cli, err := engine(ctx)
	if err != nil {
		return nil, err
	}
	sweepOrphans(ctx, cli)
	dir, err := topologies.NewTempDir("container-" + string(spec.Kind))
	if err != nil {
		return nil, err
	}
	t := &topology{spec: spec, cli: cli, dir: dir, cuts: map[[2]string]bool{}, hooked: map[*node]bool{}}
	t.netName = fmt.Sprintf("lockbench-%d-%d", os.Getpid(), runSeq.Add(1))
	t.forget = topologies.OnReap(func() { _ = removeAll(cli, t.trackedIDs(), t.networkID()) })
	var topo topologies.Topology
	switch spec.Kind {
	case topologies.Postgres:
		topo, err = t.startPostgres(ctx)
	case topologies.ZooKeeper:
		topo, err = t.startZooKeeper(ctx)
	case topologies.Etcd:
		topo, err = t.startEtcd(ctx)
	}
	if err != nil {
		t.Close()
		return nil, fmt.Errorf("provider container: %s: %w", spec.Kind, err)
	}
	t.image = t.masters[0].svc.image
	return topo, nil
}
