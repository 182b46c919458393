package sweep

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// Redlock sizes and WAIT shapes the scaling presets sweep. Five-node Redlock is the
// registry's own "redlock"; the others are registered here, named for their size.
var (
	RedlockSizes = map[string]int{"redlock-3": 3, "redlock": 5, "redlock-7": 7}
	// WaitShapes: replicas behind the master, and how many must acknowledge (1 or all).
	WaitShapes = map[string][2]int{
		"wait-1of1": {1, 1}, "wait-1of2": {2, 1}, "wait-2of2": {2, 2}, "wait-1of4": {4, 1}, "wait-4of4": {4, 4},
	}
)

func init() {
	for name, n := range RedlockSizes {
		if name == "redlock" {
			continue
		}
		locks.Register(name, topologies.Spec{Kind: topologies.Redlock, Masters: n},
			func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
				r := o.Redlock
				r.RedisOptions = o.RedisOptions
				return locks.NewRedlock(ctx, topologies.Addrs(topo.Masters()), r)
			})
	}
	for name, shape := range WaitShapes {
		acks := shape[1]
		locks.Register(name, topologies.Spec{Kind: topologies.Replicated, Replicas: shape[0]},
			func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
				if got := len(topo.Replicas()); got < acks {
					return nil, fmt.Errorf("WAIT %d needs %d replicas, the topology has %d", acks, acks, got)
				}
				w := o.Wait
				w.RedisOptions, w.Replicas = o.RedisOptions, acks
				return locks.NewWait(ctx, topo.Masters()[0].Addr(), w)
			})
	}
}
