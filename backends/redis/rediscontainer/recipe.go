// Package rediscontainer runs Redis's deployments with the container provider: one
// redis-server (or sentinel) container per node, from the official image or one built
// from the host's redis-server (with libfaketime, for clock faults). It starts the same
// deployment, in the same order, as the process provider: masters and replicas
// together, the replicas attached, then the sentinels together. It also lends its
// nodes to a store that joins them itself (a Redis Cluster: AddNodes).
package rediscontainer

import (
	"context"
	"fmt"
	"strconv"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/container"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// Start starts spec's masters and replicas, attaches the replicas, then starts the
// sentinels, and returns the deployment itself: its servers are its masters, replicas
// and sentinels by role.
func Start(ctx context.Context, d *container.Topology) (topologies.Topology, error) {
	spec := d.Spec()
	clocked := len(spec.Clocks) > 0
	image, err := Image(ctx, clocked)
	if err != nil {
		return nil, err
	}
	if clocked && !hasFaketime(ctx, image) {
		return nil, fmt.Errorf("clocks: image %s has no libfaketime; clock faults need the image built from the host "+
			"(%s=%s, with faketime and gcc installed)", image, ImageEnv, HostImage)
	}
	replicas := 0
	if spec.Kind == topologies.Replicated || spec.Kind == topologies.Sentinel {
		replicas = spec.Replicas
	}
	if err := addData(d, image, spec.Masters, replicas); err != nil {
		return nil, err
	}
	if err := d.Start(ctx); err != nil {
		return nil, err
	}
	if replicas == 0 {
		return d, nil
	}
	master := d.Servers()[0]
	for _, r := range d.Replicas() {
		// Attached after start, once the rules carry 127.0.0.1:port to the master; the
		// rewritten config makes a restarted replica rejoin it, as the process provider's does.
		if err := redisadmin.AdminDo(ctx, r.Addr(), "REPLICAOF", "127.0.0.1", strconv.Itoa(master.Port())); err != nil {
			return nil, fmt.Errorf("%s: replicaof %s: %w", r.Name(), master.Addr(), err)
		}
		if err := redisadmin.AdminDo(ctx, r.Addr(), "CONFIG", "REWRITE"); err != nil {
			return nil, fmt.Errorf("%s: config rewrite: %w", r.Name(), err)
		}
	}
	if err := redisadmin.WaitReplicasOnline(ctx, master.Addr(), replicas); err != nil {
		return nil, err
	}
	if spec.Kind != topologies.Sentinel {
		return d, nil
	}
	if err := addSentinels(d, image, master, spec.Sentinels); err != nil {
		return nil, err
	}
	if err := d.Start(ctx); err != nil {
		return nil, err
	}
	return d, redisadmin.WaitSentinelsAgree(ctx, d.Sentinels(), spec.MasterName, master.Addr(), replicas)
}

// addData declares the masters, then the replicas, each on a port of its own.
func addData(d *container.Topology, image string, masters, replicas int) error {
	ports, err := d.Ports(masters + replicas)
	if err != nil {
		return err
	}
	for i, port := range ports {
		name, role := fmt.Sprintf("master-%d", i), topologies.RoleMaster
		if i >= masters {
			name, role = fmt.Sprintf("replica-%d", i-masters), topologies.RoleReplica
		}
		config := func(s *container.Server) []string { return dataConfig(d.Spec(), s) }
		if _, err := addServer(d, image, name, role, port, nil, false, config); err != nil {
			return err
		}
	}
	return nil
}

// addSentinels declares n sentinels watching master.
func addSentinels(d *container.Topology, image string, master *container.Server, n int) error {
	ports, err := d.Ports(n)
	if err != nil {
		return err
	}
	for i, port := range ports {
		config := func(s *container.Server) []string { return sentinelConfig(d.Spec(), s, master) }
		if _,
			err := addServer(d, image, fmt.Sprintf("sentinel-%d", i), topologies.RoleSentinel, port, nil, true,
			config); err != nil {
			return err
		}
	}
	return nil
}
