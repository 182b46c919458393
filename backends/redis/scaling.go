package redis

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/redislock"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// Redis's scaling axes: Redlock's masters, and the replicas behind a WAIT.
const (
	redlockNodes = "scaling-redlock-nodes"
	waitReplicas = "scaling-wait-replicas"
)

var scalingAxes = []backend.ScalingAxis{
	{Preset: redlockNodes, Title: "p99 acquire latency against Redlock nodes", XLabel: "Redlock nodes (masters)"},
	{Preset: waitReplicas, Title: "p99 acquire latency against WAIT replicas", XLabel: "replicas behind the master"},
}

// redlockSize is a Redlock strategy of the redlock-nodes axis besides the registry's
// own five-node "redlock".
type redlockSize struct {
	name              string
	position, masters int
}

var redlockSizes = []redlockSize{{"redlock-3", 9, 3}, {"redlock-7", 10, 7}}

// waitShape is a WAIT strategy of the wait-replicas axis: replicas behind the
// master, and how many must acknowledge (1 or all).
type waitShape struct {
	name                     string
	position, replicas, acks int
}

var waitShapes = []waitShape{
	{"wait-1of1", 11, 1, 1}, {"wait-1of2", 12, 2, 1}, {"wait-2of2", 13, 2, 2}, {"wait-1of4", 14, 4, 1},
	{"wait-4of4", 15, 4, 4},
}

// onRedlockAxis places a Redlock of masters nodes on its axis.
func onRedlockAxis(masters int) *backend.Scaling {
	return &backend.Scaling{Axis: redlockNodes, At: float64(masters), Series: "redlock"}
}

func (s redlockSize) strategy() backend.Strategy {
	return backend.Strategy{Name: s.name, Position: s.position, SafetyRank: backend.RankMajority,
		Scaling: onRedlockAxis(s.masters), Probes: redlockProbes(s.name, ""),
		Capabilities: awaitsEveryNode}
}

func (w waitShape) strategy() backend.Strategy {
	series := "WAIT 1"
	if w.acks == w.replicas && w.replicas > 1 {
		series = "WAIT all"
	}
	return backend.Strategy{Name: w.name, Position: w.position,
		Scaling: &backend.Scaling{Axis: waitReplicas, At: float64(w.replicas), Series: series}}
}

// sizedStrategies declares each size of one of the axes.
func sizedStrategies[T interface{ strategy() backend.Strategy }](sizes []T) []backend.Strategy {
	out := make([]backend.Strategy, len(sizes))
	for i, s := range sizes {
		out[i] = s.strategy()
	}
	return out
}

// The lockers of the sizes: the registry's Redlock and WAIT clients on their sizes'
// deployments.
func init() {
	for _, s := range redlockSizes {
		locks.Register(s.name, backend.Spec{Kind: topologies.Redlock, Masters: s.masters},
			func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
				r := o.Redlock
				r.RedisOptions = o.RedisOptions
				return redislock.NewRedlock(ctx, topologies.Addrs(topo.Masters()), r)
			})
	}
	for _, w := range waitShapes {
		locks.Register(w.name, backend.Spec{Kind: topologies.Replicated, Replicas: w.replicas},
			func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
				if got := len(topo.Replicas()); got < w.acks {
					return nil, fmt.Errorf("WAIT %d needs %d replicas, the topology has %d", w.acks, w.acks, got)
				}
				opts := o.Wait
				opts.RedisOptions, opts.Replicas = o.RedisOptions, w.acks
				return redislock.NewWait(ctx, topo.Masters()[0].Addr(), opts)
			})
	}
}
