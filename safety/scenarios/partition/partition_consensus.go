package partition

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// consensusPartition: the leader of three consensus members is cut off from the other
// two, with a client still reaching it from the host. Unlike sentinel's old master, the
// isolated leader commits nothing: it grants no lock, the majority elects a leader, and
// B gets the lock only once A's lease has expired there.
type consensusPartition struct{}

// isConsensusGroup is a consensus store deployed as three members, a leader and the
// two followers the trial cuts it from.
func isConsensusGroup(s lab.Store) bool {
	return lab.IsConsensusFailover(s) && s.Spec().WithDefaults(linked.Catalog()).Members == 3
}

type consensusPartitionVariant struct {
	lab.Variant
	store lab.Failover
}

func (s consensusPartition) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	ttl, election := p.Duration("ttl"), p.Duration("election-timeout")
	rep := env.NewReport()
	for _, st := range p.Stores("strategies") {
		strategy := st.Strategy()
		v := consensusPartitionVariant{lab.Variant{Variant: &results.Variant{Name: strategy + "/isolated-leader",
			Description: "3 members; the leader cut from both followers after A's grant, A's client still reaching only it: " +
				"the isolated leader grants nothing, B locks on the majority once A's lease ran out",
			Params:  map[string]string{"strategy": strategy, "ttl": ttl.String()},
			Measure: results.Violations,
			Claims: []results.Claim{results.Holds(results.Violations), results.Holds(results.SplitBrainWindow),
				results.Always(results.SecondGranted)},
			WindowIs: "from the majority's new leader to the isolated leader's last accepted grant (none expected)",
		}}, st.(lab.Failover)}
		topo, part, err := env.StartPartitionable(ctx, st.Spec(), env.StartTopology)
		if err != nil {
			return nil, err
		}
		r,
			err := lab.RunTrials(ctx, env, []consensusPartitionVariant{v},
			func(ctx context.Context, v consensusPartitionVariant, t *lab.Trial) error {
				ctx, cancel := context.WithTimeout(ctx, 2*time.Minute+election)
				defer cancel()
				defer part.HealAll()
				return consensusPartitionTrial{topo: topo, part: part, st: v.store, strategy: strategy, ttl: ttl,
					election: election, t: t}.run(ctx)
			})
		topo.Close()
		if err != nil {
			return nil, err
		}
		rep.Variants = append(rep.Variants, r.Variants...)
	}
	return rep, nil
}

// pinnedTopology is a topology whose clients are given only some of its members: a
// client of the isolated leader alone reaches it from the host through the cut.
type pinnedTopology struct {
	topologies.Topology
	members []topologies.Node
}

func (p pinnedTopology) Masters() []topologies.Node { return p.members }
