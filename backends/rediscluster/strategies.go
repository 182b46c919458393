package rediscluster

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/redislock"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
)

// The cluster's strategies.
const (
	StrategyCluster = "cluster"      // SET NX PX on the key's master, Lua release, through ClusterClient
	StrategyWait    = "cluster-wait" // the same, then WAIT on the key's master for its replica
	// StrategyRueidis is rueidislock as shipped on a cluster: 2 of 3 keys, each in its own slot.
	StrategyRueidis = "rueidislock-cluster"
)

// Strategies are the cluster's, each declared with what every list of strategies knows
// of it: beside the Sentinel on the safety order (each key's master fails over
// asynchronously), cluster priced beside single and cluster-wait beside cluster on the
// ladder, each the guard of one failover-loss mode on the cluster, and no
// injected-latency cells (the cluster client dials the addresses the nodes announce,
// which the proxies do not map).
var Strategies = []locks.Strategy{
	{Strategy: backend.Strategy{Name: StrategyCluster, Position: 23, SafetyRank: backend.RankShardFailover,
		Presets: clusterPresets,
		Ladder: &backend.Rung{From: "single",
			Adds: "the same `SET NX` on a Redis Cluster: the key's slot's master, routed by the cluster client and failed " +
				"over by the cluster bus"},
		KeyedFailover: &backend.KeyedFailover{Store: StrategyCluster, Mode: "none"},
		Synthetic: &backend.Synthetic{Attempt: 120 * time.Microsecond, RoundTrips: 1, Capacity: 26000,
			Topology: syntheticTopology, Unproxied: true}},
		Spec: cluster, Commands: clusterCommands(nil),
		Build: func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
			return NewCluster(ctx, topologies.Addrs(topo.Masters()), o.Options)
		}},
	{Strategy: backend.Strategy{Name: StrategyWait, Position: 24, SafetyRank: backend.RankShardFailover,
		Presets: clusterPresets,
		Ladder: &backend.Rung{From: StrategyCluster,
			Adds: "on a Redis Cluster, the key reached its master's replica (`WAIT 1`) before the lock is granted"},
		KeyedFailover: &backend.KeyedFailover{Store: StrategyCluster, Mode: "wait1"},
		Synthetic: &backend.Synthetic{Attempt: 230 * time.Microsecond, RoundTrips: 2, Capacity: 15000,
			Topology: syntheticTopology, Unproxied: true}},
		Spec: cluster, Commands: clusterCommands([]string{"WAIT"}),
		Build: func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
			w := o.Wait
			w.Options = o.Options
			return NewClusterWait(ctx, topologies.Addrs(topo.Masters()), w)
		}},
	{Strategy: backend.Strategy{Name: StrategyFenced, Position: 25, SafetyRank: backend.RankShardFailover},
		Spec: cluster, Commands: clusterCommands(nil),
		Build: func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
			return NewClusterFenced(ctx, topologies.Addrs(topo.Masters()), o.Options)
		}},
	{Strategy: backend.Strategy{Name: StrategyRueidis, Position: 36, SafetyRank: backend.RankShardFailover},
		Spec: cluster, Traits: []locks.Trait{locks.ExtendsItself},
		Build: func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
			return redislock.NewRueidisCluster(topologies.Addrs(topo.Masters()), StrategyRueidis, false, o)
		}},
}

var cluster = backend.Spec{Kind: Kind}

var clusterPresets = []backend.Preset{backend.RunMatrix, backend.UpdateMatrix, backend.CapacitySearch}

const syntheticTopology = "cluster (3 masters + 1 replica each)"

// clusterCommands are a cluster locker's: the SET NX lock's, CLUSTER SLOTS and SHARDS
// (how go-redis learns which master serves a slot), COMMAND (where each command's keys
// are, to route it) and ASKING (an ASK redirect).
func clusterCommands(more []string) []string {
	return append(more, "SET", "EVALSHA", "EVAL", "SCRIPT LOAD", "CLUSTER SLOTS", "CLUSTER SHARDS", "COMMAND", "ASKING")
}

// newClusterClient is a ClusterClient whose every node client is made as
// redisconn.NewClient makes one (no resent SET NX, the allow-list of purpose). It
// follows MOVED and ASK (up to 3 redirects); a command that failed on the network is
// still tried once more by the cluster client itself, which for a SET NX whose reply
// was lost answers "taken" for a lock the first send granted (held until its TTL).
func newClusterClient(seeds []string, purpose string, opts redisconn.Options) *redis.ClusterClient {
	return redis.NewClusterClient(&redis.ClusterOptions{
		Addrs:    seeds,
		PoolSize: opts.PoolSize,
		NewClient: func(o *redis.Options) *redis.Client {
			return redisconn.NewClient(o.Addr, purpose, opts)
		},
		MaxRedirects:    3,
		DialTimeout:     opts.CommandTimeout(),
		ReadTimeout:     opts.CommandTimeout(),
		WriteTimeout:    opts.CommandTimeout(),
		DisableIdentity: true,
		Protocol:        2,
	})
}

// clusterLocker is the SET NX lock with a cluster client: each command goes to the
// master serving the key's slot.
type clusterLocker struct {
	*redislock.SetNX
	client *redis.ClusterClient
}

// NewCluster locks on the cluster the seeds belong to.
func NewCluster(ctx context.Context, seeds []string, opts redisconn.Options) (locks.Locker, error) {
	return newClusterLocker(ctx, seeds, StrategyCluster, opts)
}

func newClusterLocker(ctx context.Context, seeds []string, name string,
	opts redisconn.Options) (*clusterLocker, error) {
	c := newClusterClient(seeds, name, opts)
	core, err := redislock.NewSetNX(ctx, name, c, opts.CommandTimeout())
	if err != nil {
		return nil, err
	}
	return &clusterLocker{SetNX: core, client: c}, nil
}

// Acquire is SET NX's, and after a failure that was no answer of the lock's (a dead
// master, CLUSTERDOWN) the slot map is reloaded for the next attempt: go-redis itself
// keeps sending a slot's commands to a dead master until its 60 s reload interval.
func (l *clusterLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	lease, err := l.SetNX.Acquire(ctx, key, ttl)
	l.reloadAfter(ctx, err)
	return lease, err
}

// Release is SET NX's, reloading the slot map after a failure as Acquire does: a
// holder that only releases would otherwise try the dead master for a minute.
func (l *clusterLocker) Release(ctx context.Context, lease locks.Lease) error {
	err := l.SetNX.Release(ctx, lease)
	l.reloadAfter(ctx, err)
	return err
}

// Extend is SET NX's, reloading the slot map after a failure as Acquire does.
func (l *clusterLocker) Extend(ctx context.Context, lease locks.Lease, ttl time.Duration) (locks.Lease, error) {
	extended, err := l.SetNX.Extend(ctx, lease, ttl)
	l.reloadAfter(ctx, err)
	return extended, err
}

// reloadAfter asks for a new slot map (in the background) after any error but the
// lock's own refusals: a redirect, a node that no longer answers, a cluster down.
func (l *clusterLocker) reloadAfter(ctx context.Context, err error) {
	if err != nil && !errors.Is(err, locks.ErrNotAcquired) && !errors.Is(err, locks.ErrNotReplicated) &&
		!errors.Is(err, locks.ErrNotHeld) {
		l.client.ReloadState(ctx)
	}
}

// Warm opens w.Clients connections to every master.
func (l *clusterLocker) Warm(ctx context.Context, w locks.WarmUp) error {
	return l.client.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error {
		return redislock.WarmClient(ctx, c, w.Clients)
	})
}

// clusterWait is cluster plus WAIT on the key's master, as the wait strategy does on
// its one master: the SET and the WAIT go to that master's client in one pipeline.
type clusterWait struct {
	*clusterLocker
	opts locks.WaitOptions
}

// NewClusterWait locks on the cluster and waits for opts.Replicas replicas of the key's master.
func NewClusterWait(ctx context.Context, seeds []string, opts locks.WaitOptions) (locks.Locker, error) {
	l, err := newClusterLocker(ctx, seeds, StrategyWait, opts.Options)
	if err != nil {
		return nil, err
	}
	return &clusterWait{clusterLocker: l, opts: opts}, nil
}

// clusterWaitFenced is cluster-wait whose grants carry cluster-fenced's number: the
// fenced script on the key's master, then WAIT there (a round trip more than
// cluster-wait's pipeline: the safety scenarios' fenced form, not a benchmarked one).
type clusterWaitFenced struct {
	clusterFenced
	opts locks.WaitOptions
}

// NewClusterWaitFenced is NewClusterWait numbering each grant as NewClusterFenced does.
func NewClusterWaitFenced(ctx context.Context, seeds []string, opts locks.WaitOptions) (locks.Locker, error) {
	f, err := newFenced(ctx, seeds, StrategyWait, opts.Options)
	if err != nil {
		return nil, err
	}
	return &clusterWaitFenced{clusterFenced: *f, opts: opts.WithDefaults()}, nil
}

func (w *clusterWaitFenced) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	lease, err := w.clusterFenced.Acquire(ctx, key, ttl)
	if err != nil {
		return lease, err
	}
	master, err := w.client.MasterForKey(ctx, key)
	if err == nil {
		var acked int64
		if acked, err = master.Do(ctx, "WAIT", w.opts.Replicas, w.opts.Timeout.Milliseconds()).Int64(); err == nil {
			err = w.opts.Acknowledged(acked)
		}
	}
	if err != nil { // the master holds a lock no failover would keep, or may: give it back
		w.reloadAfter(ctx, err)
		w.GiveBack(ctx, lease)
		return locks.Lease{}, err
	}
	return lease, nil
}

func (w *clusterWait) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	master, err := w.client.MasterForKey(ctx, key)
	if err != nil {
		w.reloadAfter(ctx, err)
		return locks.Lease{}, err
	}
	lease, err := redislock.AcquireAcknowledged(ctx, master, key, ttl, w.opts, w.GiveBack)
	// The pipeline on one master's client follows no redirect: a MOVED (a failover, a
	// resharding) makes the next attempt ask the new map.
	w.reloadAfter(ctx, err)
	return lease, err
}
