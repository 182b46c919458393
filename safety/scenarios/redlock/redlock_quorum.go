package redlock

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// redlockQuorum: redsync issue #186. A Redlock held on exactly a quorum (3 of 5) breaks
// when one of those nodes restarts empty: a second client finds 3 free nodes. Fail-fast
// returns at the quorum and cancels the SETs still in flight, so its grants should sit
// on exactly a quorum more often. The run measures that share with one client and with
// several racing, the break rate after the restart, and whether fail-fast's cancelled
// SETs leave partial locks behind once every client is done.
type redlockQuorum struct{}

type quorumVariant struct {
	lab.Variant
	strategy string
	clients  int  // racing for each grant; 1 is uncontended
	restart  bool // one of the winner's nodes restarts empty, then B tries
	subset   quorumSubset
}

func (s redlockQuorum) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	ttl, settle := p.Duration("ttl"), p.Duration("settle")
	var variants []quorumVariant
	for _, st := range p.Stores("strategies") {
		for _, clients := range []int{1, p.Int("clients")} {
			variants = append(variants, quorumVariants(st.Strategy(), clients)...)
		}
	}
	topo, err := env.StartTopology(ctx, backend.Spec{Kind: topologies.Redlock, Masters: 5})
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	return lab.RunTrials(ctx, env, variants, func(ctx context.Context, v quorumVariant, t *lab.Trial) error {
		ctx, cancel := context.WithTimeout(ctx, time.Minute+2*ttl)
		defer cancel()
		if err := wakeAll(ctx, topo); err != nil {
			return lab.Failed("setup", err)
		}
		if v.restart {
			return s.restartTrial(ctx, topo, v, t, ttl)
		}
		return s.shareTrial(ctx, topo, v, t, ttl, settle)
	})
}

// quorumVariants are one strategy's variants at one level of contention. Only what
// the mechanism makes certain is claimed: a non-fail-fast grant without contention
// waits for all five free nodes (never exactly a quorum, nothing left behind); a
// grant on exactly a quorum that loses a node to an empty restart lets B in; one on
// more nodes keeps a quorum through one restart.
func quorumVariants(strategy string, clients int) []quorumVariant {
	contention := "uncontended"
	if clients > 1 {
		contention = fmt.Sprintf("contended-%d", clients)
	}
	mk := func(name, what string, restart bool, subset quorumSubset, headline results.Measure,
		claims ...results.Claim) quorumVariant {
		return quorumVariant{Variant: lab.Variant{Variant: &results.Variant{Name: strategy + "/" + contention + "/" + name,
			Description: what,
			Measure:     headline, Claims: claims,
			Params: map[string]string{"strategy": strategy, "clients": fmt.Sprint(clients)}}},
			strategy: strategy, clients: clients, restart: restart, subset: subset}
	}
	var shareClaims []results.Claim
	if linked.Catalog().StrategyAwaitsEveryIndependentNode(strategy) {
		shareClaims = append(shareClaims, results.Holds(results.PartialLocks))
		if clients == 1 {
			shareClaims = append(shareClaims, results.Holds(results.QuorumOnly))
		}
	}
	racing := fmt.Sprintf("%d clients race for the lock", clients)
	if clients == 1 {
		racing = "one client locks"
	}
	return []quorumVariant{
		mk("share", racing+"; its key is read on all five nodes right after the grant; after everyone is done the nodes "+
			"are read for keys left",
			false, anyQuorum, results.QuorumOnly, shareClaims...),
		mk("restart-empty", racing+"; one node holding the winner's key restarts empty right after the grant; B tries",
			true, anyQuorum, results.Violations),
		mk("restart-empty-exact-quorum", "as restart-empty, judged only where the key was on exactly 3 nodes at the grant, "+
			"2 after the restart, and the rest free",
			true, exactQuorum, results.Violations, results.Always(results.Violations)),
		mk("restart-empty-beyond-quorum",
			"as restart-empty, judged only where the key was on 4 or 5 nodes at the grant (a quorum left after the restart)",
			true, beyondQuorum, results.Violations, results.Holds(results.Violations)),
	}
}
