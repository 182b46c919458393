package partition

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// redlockPartition: Redlock's clients behind partitions. Each client is placed in a
// node's network namespace, so cutting that node from others cuts the client from them.
// (a) A, cut from 2 of 5 nodes, still locks with 3 (the cut costs it validity, measured
// against the same client uncut). (b) A holds {0,1,2} while cut from {3,4}; node 2
// restarts empty; B, cut from {0,1}, locks {2,3,4}: two holders, unless the restart is
// delayed past the TTL, as redlock-restart does.
type redlockPartition struct{}

type redlockPartitionVariant struct {
	lab.Variant
	cutA    bool // A (beside node 0) cut from nodes 3 and 4
	restart bool // node 2 restarts empty; B (beside node 4, cut from 0 and 1) tries
	delayed bool // node 2 stays down for the TTL
}

func (redlockPartition) variants() []redlockPartitionVariant {
	mk := func(name, what string, claims ...results.Claim) lab.Variant {
		return lab.Variant{Variant: &results.Variant{Name: name, Description: what, Measure: results.Violations,
			Claims: claims,
			Params: map[string]string{"strategy": "redlock"}}}
	}
	return []redlockPartitionVariant{
		{Variant: mk("no-cut", "control: A, beside node 0, reaches all five nodes and locks; B, on the host, tries",
			results.Holds(results.Violations), results.Holds(results.SecondGranted))},
		{Variant: mk("minority-cut",
			"A, beside node 0, is cut from nodes 3 and 4 and locks with 0,1,2; B, on the host, reaching all five, tries",
			results.Holds(results.Violations), results.Holds(results.SecondGranted)), cutA: true},
		{Variant: mk("majorities-restart-empty", "A (cut from 3,4) holds 0,1,2; node 2 restarts empty right after the "+
			"grant; B (beside node 4, cut from 0,1) locks 2,3,4",
			results.Always(results.Violations)), cutA: true, restart: true},
		{Variant: mk("majorities-delayed-restart", "as majorities-restart-empty, but node 2 is killed after the grant and "+
			"restarted empty only after the TTL; A stops at the end of its validity",
			results.Holds(results.Violations), results.Always(results.SecondGranted)), cutA: true, restart: true, delayed: true},
	}
}

func (s redlockPartition) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	ttl := p.Duration("ttl")
	topo, part, err := env.StartPartitionable(ctx, backend.Spec{Kind: topologies.Redlock, Masters: 5}, env.StartTopology)
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	return lab.RunTrials(ctx, env, s.variants(),
		func(ctx context.Context, v redlockPartitionVariant, t *lab.Trial) error {
			ctx, cancel := context.WithTimeout(ctx, time.Minute+2*ttl)
			defer cancel()
			defer part.HealAll() // a trial's cuts never outlive it
			return redlockPartitionTrial{topo: topo, part: part, v: v, ttl: ttl, t: t}.run(ctx)
		})
}
