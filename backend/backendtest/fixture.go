package backendtest

import (
	"time"

	"github.com/lockbench/lockbench/backend"
)

// Catalog is a fresh catalog of the shipped stores' metadata as the statistics,
// figures and reports read it (names, kinds, positions, safety ranks, presets, ladder
// rungs, scaling axes, synthetic costs), without their servers, clients, probes or
// guards; backends/all's tests hold it to the real stores'. It lets those packages test
// without linking every store.
func Catalog() *backend.Catalog {
	c := backend.NewCatalog()
	for _, d := range []backend.Descriptor{redis, cluster, etcd, postgres, zookeeper} {
		if err := c.Add(d); err != nil {
			panic(err)
		}
	}
	return c
}

// The presets of the four strategies of one master, its replicas, Sentinel and Redlock.
var everyPreset = []backend.Preset{
	backend.RunMatrix, backend.UpdateMatrix, backend.CapacitySearch, backend.ScalingMatrix,
}

const redlock5 = "redlock-5 (5 masters)"

var redis = backend.Descriptor{Store: "redis", Axes: []backend.ScalingAxis{
	{Preset: "scaling-redlock-nodes", Title: "p99 acquire latency against Redlock nodes",
		XLabel: "Redlock nodes (masters)"},
	{Preset: "scaling-wait-replicas", Title: "p99 acquire latency against WAIT replicas",
		XLabel: "replicas behind the master"},
}, Shapes: []backend.Shape{
	{Kind: "single", Rank: 10, Can: oneMaster{},
		Strategies: []backend.Strategy{
			{Name: "single", Position: 0, SafetyRank: backend.RankOneMaster,
				Presets: append([]backend.Preset{backend.OpenLoopSweep}, everyPreset...),
				Ladder:  &backend.Rung{Adds: "one Redis master; the lock dies with it"},
				Synthetic: &backend.Synthetic{Attempt: 70 * time.Microsecond, RoundTrips: 1, Capacity: 40000,
					Topology: "single", Small: true, OpenLoop: backend.BothMatrix},
				BaselineCommand: true},
			{Name: "lua-cas", Position: 21},
			{Name: "watch-multi", Position: 22},
			{Name: "bsm-redislock", Position: 28, SafetyRank: backend.RankOneMaster},
		}},
	{Kind: "replicated", Rank: 20, Can: replicatedMaster{},
		Strategies: append([]backend.Strategy{
			{Name: "wait", Position: 1, SafetyRank: backend.RankReplicaAck, Presets: everyPreset,
				Ladder: &backend.Rung{Adds: "the key reached a replica (`WAIT`) before the lock is granted"},
				Synthetic: &backend.Synthetic{Attempt: 200 * time.Microsecond, RoundTrips: 2, Capacity: 16000,
					Topology: "replicated (master + 2 replicas)", Small: true, OpenLoop: backend.FullMatrix}},
		}, waitSizes()...)},
	{Kind: "sentinel", Rank: 30,
		Can: watchedMaster{},
		Strategies: []backend.Strategy{
			{Name: "sentinel", Position: 2, SafetyRank: backend.RankFailover, Presets: everyPreset,
				Synthetic: &backend.Synthetic{Attempt: 75 * time.Microsecond, RoundTrips: 1, Capacity: 27000,
					Topology: "sentinel (master + 2 replicas + 3 sentinels)"}},
		}},
	{Kind: "redlock", Rank: 40, Can: independentMasters{},
		Strategies: []backend.Strategy{
			{Name: "redlock", Position: 3, SafetyRank: backend.RankMajority,
				Presets: append([]backend.Preset{backend.SlowNodeSweep, backend.OpenLoopSweep}, everyPreset...),
				Ladder:  &backend.Rung{Adds: "a majority of independent masters must grant the key"},
				Scaling: onRedlockAxis(5),
				Synthetic: &backend.Synthetic{Attempt: 180 * time.Microsecond, RoundTrips: 1, Capacity: 3600,
					Topology: redlock5, Small: true, OpenLoop: backend.BothMatrix, SlowNode: backend.WaitsForSlowNode},
				AwaitsEveryNode: true},
			{Name: "redlock-failfast", Position: 4, SafetyRank: backend.RankMajority,
				Presets: []backend.Preset{backend.SlowNodeSweep},
				Synthetic: &backend.Synthetic{Attempt: 165 * time.Microsecond, RoundTrips: 1, Capacity: 3800,
					Topology: redlock5, Small: true, SlowNode: backend.MajorityWithoutSlowNode}},
			{Name: "redlock-3", Position: 9, SafetyRank: backend.RankMajority, Scaling: onRedlockAxis(3),
				AwaitsEveryNode: true},
			{Name: "redlock-7", Position: 10, SafetyRank: backend.RankMajority, Scaling: onRedlockAxis(7),
				AwaitsEveryNode: true},
		}},
}}

func onRedlockAxis(masters float64) *backend.Scaling {
	return &backend.Scaling{Axis: "scaling-redlock-nodes", At: masters, Series: "redlock"}
}

// waitSizes are the WAIT strategies of the wait-replicas axis: replicas, then acks.
func waitSizes() []backend.Strategy {
	var out []backend.Strategy
	for i, w := range []struct {
		name           string
		replicas, acks int
	}{{"wait-1of1", 1, 1}, {"wait-1of2", 2, 1}, {"wait-2of2", 2, 2}, {"wait-1of4", 4, 1}, {"wait-4of4", 4, 4}} {
		series := "WAIT 1"
		if w.acks == w.replicas && w.replicas > 1 {
			series = "WAIT all"
		}
		out = append(out, backend.Strategy{Name: w.name, Position: 11 + i,
			Scaling: &backend.Scaling{Axis: "scaling-wait-replicas", At: float64(w.replicas), Series: series}})
	}
	return out
}

var clusterPresets = []backend.Preset{backend.RunMatrix, backend.UpdateMatrix, backend.CapacitySearch}

const clusterTopology = "cluster (3 masters + 1 replica each)"

var cluster = backend.Descriptor{Store: "rediscluster", Shapes: []backend.Shape{{Kind: "cluster", Rank: 45,
	Can: shards{},
	Strategies: []backend.Strategy{
		{Name: "cluster", Position: 23, SafetyRank: backend.RankShardFailover, Presets: clusterPresets,
			Ladder: &backend.Rung{From: "single", Adds: "the same `SET NX` on a Redis Cluster: the key's slot's master, " +
				"routed by the cluster client and failed over by the cluster bus"},
			KeyedFailover: &backend.KeyedFailover{Store: "cluster", Mode: "none"},
			Synthetic: &backend.Synthetic{Attempt: 120 * time.Microsecond, RoundTrips: 1, Capacity: 26000,
				Topology: clusterTopology, Unproxied: true}},
		{Name: "cluster-wait", Position: 24, SafetyRank: backend.RankShardFailover, Presets: clusterPresets,
			Ladder: &backend.Rung{From: "cluster",
				Adds: "on a Redis Cluster, the key reached its master's replica (`WAIT 1`) before the lock is granted"},
			KeyedFailover: &backend.KeyedFailover{Store: "cluster", Mode: "wait1"},
			Synthetic: &backend.Synthetic{Attempt: 230 * time.Microsecond, RoundTrips: 2, Capacity: 15000,
				Topology: clusterTopology, Unproxied: true}},
		{Name: "cluster-fenced", Position: 25, SafetyRank: backend.RankShardFailover},
	}}}}

var etcd = backend.Descriptor{Store: "etcd", Shapes: []backend.Shape{{Kind: "etcd", Rank: 50,
	Can: backend.ConsensusGroup{Fence: "the log's index"},
	Strategies: []backend.Strategy{
		{Name: "etcd", Position: 5, SafetyRank: backend.RankConsensus,
			Presets: []backend.Preset{backend.RunMatrix, backend.UpdateMatrix},
			Ladder:  &backend.Rung{Adds: "Raft consensus, with a revision usable as a fencing token"},
			Synthetic: &backend.Synthetic{Attempt: 480 * time.Microsecond, RoundTrips: 1, Capacity: 4000,
				Topology: "etcd (1 member, embedded)", Small: true, OpenLoop: backend.FullMatrix}},
		{Name: "etcd-3", Position: 6, SafetyRank: backend.RankConsensus, Presets: []backend.Preset{backend.RunMatrix},
			Ladder: &backend.Rung{Adds: "a consensus group of several members: survives losing a minority"}},
		{Name: "etcd-unsafe-nofsync", Position: 26, SafetyRank: backend.RankConsensus},
		{Name: "etcd-3-unsafe-nofsync", Position: 27, SafetyRank: backend.RankConsensus},
	}}}}

// PostgreSQL's strategies are unranked: they sort after the ranked, by name.
var postgres = backend.Descriptor{Store: "postgres", Shapes: []backend.Shape{{Kind: "postgres", Rank: 60,
	Can: sequenced{},
	Strategies: []backend.Strategy{
		{Name: "pg-advisory", Position: 16, Presets: []backend.Preset{backend.UpdateMatrix}},
		{Name: "pg-for-update", Position: 17, Presets: []backend.Preset{backend.UpdateMatrix}},
		{Name: "cas-version", Position: 18},
		{Name: "unique-key", Position: 19},
		{Name: "atomic", Position: 20},
	}}}}

var zookeeper = backend.Descriptor{Store: "zookeeper", Shapes: []backend.Shape{{Kind: "zookeeper", Rank: 70,
	Can: backend.ConsensusGroup{Fence: "the log's index"},
	Strategies: []backend.Strategy{
		{Name: "zookeeper", Position: 7, SafetyRank: backend.RankConsensus,
			Presets: []backend.Preset{backend.RunMatrix, backend.UpdateMatrix}},
		{Name: "zookeeper-3", Position: 8, SafetyRank: backend.RankConsensus, Presets: []backend.Preset{backend.RunMatrix}},
	}}}}

// The capabilities of the fixture's kinds, as the stores' own declare them.
type (
	oneMaster          struct{}
	replicatedMaster   struct{ oneMaster }
	watchedMaster      struct{ replicatedMaster }
	independentMasters struct{}
	shards             struct{}
	sequenced          struct{}
)

func (oneMaster) CounterFence() string                     { return "INCR" }
func (oneMaster) RedisMasters(backend.Spec) int            { return 1 }
func (replicatedMaster) Replicas(s backend.Spec) int       { return s.Replicas }
func (watchedMaster) Sentinels(s backend.Spec) int         { return s.Sentinels }
func (independentMasters) RedisMasters(s backend.Spec) int { return s.Masters }
func (independentMasters) Majority(s backend.Spec) int     { return s.Masters/2 + 1 }
func (shards) Replicas(s backend.Spec) int                 { return s.Replicas }
func (sequenced) OwnFence() string                         { return "a sequence" }
