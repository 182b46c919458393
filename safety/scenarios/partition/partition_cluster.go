package partition

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// clusterSplitBrain: the key's master and client A (in the master's network namespace)
// are cut from every other node. The cut master grants A's lock and keeps taking writes
// until it counts fewer than a majority of masters (cluster-node-timeout), then answers
// CLUSTERDOWN; the majority marks it failed and promotes its replica, where B takes the
// lock A still holds. Only a provider that can partition runs it.
type clusterSplitBrain struct{}

// quorumStore is a store whose nodes say whether they still reach a majority (a Redis
// Cluster, where a master cut from most masters stops taking writes by itself), and
// whose lockers can be placed on one side of a cut.
type quorumStore interface {
	lab.KeyedFailover
	// ClusterState is node's own view: "fail" once it cannot reach a majority of masters.
	ClusterState(ctx context.Context, node topologies.Node) (string, error)
	// FlagsOf are the flags observer gives node ("fail" once a majority agreed it is down).
	FlagsOf(ctx context.Context, observer, node topologies.Node) ([]string, error)
	// PlacedLocker is the strategy's locker (with waitReplicas > 0, its grants wait for
	// that many replicas) learning the cluster from seeds and dialing every node through
	// dial: a client on one side of a cut.
	PlacedLocker(ctx context.Context, seeds []topologies.Node,
		dial func(ctx context.Context, network, addr string) (net.Conn, error), waitReplicas int,
		waitTimeout time.Duration) (locks.Locker, error)
}

func fitsClusterSplit(s lab.Store) bool { _, ok := s.(quorumStore); return ok }

// clusterSplitModes: A and B take the strategy's own grant, or wait for one replica.
var clusterSplitModes = []string{"none", "wait1"}

// clusterSplitConfig is the scenario's params, read once.
type clusterSplitConfig struct {
	ttl, cutHold, promotionTimeout, waitTimeout time.Duration
}

type clusterSplitVariant struct {
	lab.Variant
	store        quorumStore
	waitReplicas int
	nodeTimeout  time.Duration
}

func (v clusterSplitVariant) spec() backend.Spec {
	spec := v.store.Spec()
	spec.Masters, spec.Replicas, spec.DownAfter = 3, 1, v.nodeTimeout
	return spec
}

// variants: with no guard the lock is held on both sides in every trial (A's grant on
// the cut master is never replicated); WAIT 1 refuses A (its replica is cut away), so
// there is one holder. In both the cut master takes writes after the cut.
func (s clusterSplitBrain) variants(p lab.Values) []clusterSplitVariant {
	var out []clusterSplitVariant
	for _, st := range p.Stores("strategies") {
		for _, mode := range p.Strings("modes") {
			waits := 0
			violations, grant := results.Always(results.Violations), st.Strategy()+"'s own grant on the key's master"
			if mode == "wait1" {
				waits = 1
				violations, grant = results.Holds(results.Violations), "SET NX PX then WAIT 1 on the key's master"
			}
			for _, nt := range p.Durations("node-timeouts") {
				out = append(out,
					clusterSplitVariant{store: st.(quorumStore), waitReplicas: waits, nodeTimeout: nt,
						Variant: lab.Variant{Variant: &results.Variant{
							Name: fmt.Sprintf("%s/%s-node-timeout-%v", st.Strategy(), mode, nt),
							Description: fmt.Sprintf("3 masters, 1 replica each, cluster-node-timeout %v; the key's master and A (in its "+
								"namespace) cut from the other 5 nodes; A locks there right after the cut (%s); a probe takes fresh locks on "+
								"that master every %v; its replica, promoted by the majority, grants B the same lock the same way (B in its "+
								"namespace)",
								nt, grant, splitProbeInterval),
							Params:  map[string]string{"strategy": st.Strategy(), "mode": mode, "node_timeout": nt.String()},
							Measure: results.SplitBrainWindow,
							Claims:  []results.Claim{violations, results.Always(results.SplitBrainWindow)},
							WindowIs: "from the cut (the first grant probe on the cut master) to that master's last accepted grant: it " +
								"ends " +
								"at its first CLUSTERDOWN, once it counts fewer than a majority of masters",
						}}})
			}
		}
	}
	return out
}

func (s clusterSplitBrain) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	variants := s.variants(p)
	c := clusterSplitConfig{ttl: p.Duration("ttl"), cutHold: p.Duration("cut-hold"),
		promotionTimeout: p.Duration("promotion-timeout"), waitTimeout: p.Duration("wait-timeout")}
	if len(variants) == 0 {
		return env.NewReport(), nil
	}
	// A provider that cannot partition is refused before any trial: nothing to measure.
	deployments, err := startFirst(ctx, env, variants[0].spec(), env.StartTopology, sameCluster)
	if err != nil {
		return nil, err
	}
	defer deployments.closeUnused()
	return lab.RunTrials(ctx, env, variants, func(ctx context.Context, v clusterSplitVariant, t *lab.Trial) error {
		topo, err := deployments.forTrial(ctx, v.spec())
		if err != nil {
			return err
		}
		defer topo.Close()
		ctx, cancel := context.WithTimeout(ctx, 2*time.Minute+2*c.ttl)
		defer cancel()
		return clusterSplitTrial{c: c, v: v, topo: topo, t: t}.run(ctx)
	})
}

// sameCluster: the first cluster serves the first trial only if its node timeout is the trial's.
func sameCluster(a, b backend.Spec) bool { return a.Kind == b.Kind && a.DownAfter == b.DownAfter }
