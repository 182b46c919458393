// Package rediscluster is Redis Cluster as one lockbench backend: its descriptor (kind
// "cluster"), the process provider that starts masters with a replica each and joins
// them by the cluster bus, and the strategies cluster and cluster-wait (clusterstore
// registers them).
package rediscluster

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis"
)

// Kind is a Redis Cluster: Masters masters sharing the 16384 slots, Replicas replicas
// each, failing over by the cluster bus after cluster-node-timeout (Spec.DownAfter).
const Kind backend.Kind = "cluster"

// Defaults: three masters (the fewest whose majority can promote a replica), one
// replica each, and a node timeout equal to sentinel's default down-after here.
const (
	DefaultMasters     = 3
	DefaultReplicas    = 1
	DefaultNodeTimeout = time.Second
)

// Descriptor is Redis Cluster's (its strategies are Strategies).
var Descriptor = backend.Descriptor{Store: "rediscluster", Server: redis.Server, Flavours: backend.ServerFlavours(),
	Shapes: []backend.Shape{{
		Kind: Kind, Rank: 45,
		Can:      shards{},
		Defaults: defaults,
		Validate: validate,
		NoNetwork: "cannot run under a network profile yet (the cluster client dials the addresses the nodes announce, " +
			"which lockbench's proxies do not map)",
	}}}

// shards are a cluster's masters, each with replicas copying it asynchronously.
type shards struct{}

func (shards) Replicas(s backend.Spec) int { return s.Replicas }

func defaults(s backend.Spec) backend.Spec {
	if s.Masters == 0 {
		s.Masters = DefaultMasters
	}
	if s.Replicas == 0 {
		s.Replicas = DefaultReplicas
	}
	if s.DownAfter == 0 {
		s.DownAfter = DefaultNodeTimeout
	}
	return s
}

func validate(s backend.Spec) error {
	if s.Members != 0 || s.UnsafeNoFsync || s.Sentinels != 0 {
		return fmt.Errorf("members = %d, unsafe-no-fsync = %v, sentinels = %d: a cluster topology has none of them",
			s.Members, s.UnsafeNoFsync, s.Sentinels)
	}
	if s.Masters < 3 {
		return fmt.Errorf("cluster masters = %d: must be >= 3 (a majority of masters promotes a replica)", s.Masters)
	}
	if err := backend.CheckReplicas(s); err != nil {
		return err
	}
	if s.DownAfter < 100*time.Millisecond {
		return fmt.Errorf("cluster-node-timeout (down-after) = %v: must be >= 100ms", s.DownAfter)
	}
	// Node names are master-i and replica-i-j here, which Spec.NodeNames does not list.
	if len(s.Clocks) != 0 {
		return fmt.Errorf("clocks: the cluster provider does not skew clocks yet")
	}
	return nil
}
