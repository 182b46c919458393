package redislock

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// The sizes on Redis's scaling axes (redis.Descriptor's Axes): Redlock's masters, and the
// replicas behind a WAIT, each built by the client of the registry's own size (whose
// allow-list, "redlock" or "wait", its client sends under).
func init() {
	for _, s := range redlockSizes {
		declare(s.strategy())
	}
	for _, w := range waitShapes {
		declare(w.strategy())
	}
}

// redlockSize is a Redlock strategy of the redlock-nodes axis besides the five-node
// "redlock".
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
	return &backend.Scaling{Axis: redis.RedlockNodesAxis, At: float64(masters), Series: "redlock"}
}

func (s redlockSize) strategy() locks.Strategy {
	return locks.Strategy{Strategy: backend.Strategy{Name: s.name, Position: s.position,
		SafetyRank: backend.RankMajority, Scaling: onRedlockAxis(s.masters), Probes: redlockProbes(s.name, ""),
		AwaitsEveryNode: true},
		Spec: backend.Spec{Kind: topologies.Redlock, Masters: s.masters},
		Build: func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
			return redlockAt(ctx, topologies.Addrs(topo.Masters()), o)
		}}
}

func (w waitShape) strategy() locks.Strategy {
	series := "WAIT 1"
	if w.acks == w.replicas && w.replicas > 1 {
		series = "WAIT all"
	}
	return locks.Strategy{Strategy: backend.Strategy{Name: w.name, Position: w.position,
		Scaling: &backend.Scaling{Axis: redis.WaitReplicasAxis, At: float64(w.replicas), Series: series}},
		Spec: backend.Spec{Kind: topologies.Replicated, Replicas: w.replicas},
		Build: func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
			if got := len(topo.Replicas()); got < w.acks {
				return nil, fmt.Errorf("WAIT %d needs %d replicas, the topology has %d", w.acks, w.acks, got)
			}
			opts := o.Wait
			opts.Options, opts.Replicas = o.Options, w.acks
			return NewWait(ctx, topo.Masters()[0].Addr(), opts)
		}}
}
