package redlock

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// quorumOf is the majority of n Redlock nodes.
func quorumOf(n int) int { return n/2 + 1 }

// countQuorumOnly records whether the grant sat on exactly a quorum, and where.
func countQuorumOnly(t *lab.Trial, g *quorumGrant, nodes int) {
	exact := 0
	if len(g.atGrant.Holding) == quorumOf(nodes) {
		exact = 1
	}
	t.Count(results.QuorumOnly, exact)
	t.Input("nodes_holding_at_grant", float64(len(g.atGrant.Holding)))
}

// shareTrial: the clients race, the winner works and releases, every client is done;
// then the nodes are read for any lock key left behind.
func (s redlockQuorum) shareTrial(ctx context.Context, topo topologies.Topology, v quorumVariant, t *lab.Trial, ttl,
	settle time.Duration) error {
	nodes := topo.Masters()
	clients, closeAll, err := newQuorumClients(ctx, t, topo, v.strategy, racerIDs(v.clients)...)
	if err != nil {
		return err
	}
	defer closeAll()
	res := lab.NewResource("resource", false, t.Rec)
	g, err := raceForQuorum(ctx, clients, nodes, t.Key, ttl)
	if err != nil {
		return err
	}
	countQuorumOnly(t, g, len(nodes))
	if err := g.client.Enter(ctx, res, g.lease); err != nil {
		return err
	}
	g.client.Leave(res, g.lease)
	if err := g.client.Release(ctx, g.lease); err != nil {
		return lab.Failed("release", fmt.Errorf("winner %s: %w", g.client.ID, err))
	}
	// Fail-fast returns before its last commands are answered: let them land first.
	if err := lab.Sleep(ctx, settle); err != nil {
		return err
	}
	left, err := lab.CountLockKeys(ctx, nodes, g.keys)
	if err != nil {
		return lab.Failed("observe", err)
	}
	t.Count(results.PartialLocks, left)
	t.Prove("%s's key read on nodes %v (%d of %d) right after its grant; %d lock keys left on the nodes %v after every "+
		"client was done",
		g.client.ID, g.atGrant.Holding, len(g.atGrant.Holding), len(nodes), left, settle)
	return nil
}

// restartTrial: the clients race; one node of those holding the winner's key restarts
// empty right after the grant; B, a client that did not race, tries while the winner
// still holds.
func (s redlockQuorum) restartTrial(ctx context.Context, topo topologies.Topology, v quorumVariant, t *lab.Trial,
	ttl time.Duration) error {
	nodes := topo.Masters()
	clients, closeAll, err := newQuorumClients(ctx, t, topo, v.strategy, append(racerIDs(v.clients), "B")...)
	if err != nil {
		return err
	}
	defer closeAll()
	racers, b := clients[:len(clients)-1], clients[len(clients)-1]
	res := lab.NewResource("resource", false, t.Rec)
	g, err := raceForQuorum(ctx, racers, nodes, t.Key, ttl)
	if err != nil {
		return err
	}
	a, lease := g.client, g.lease
	countQuorumOnly(t, g, len(nodes))
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	if len(g.atGrant.Holding) == 0 {
		return lab.Failed("observe", fmt.Errorf("%s was granted %s but no node holds its token", a.ID, lease.Key))
	}
	victim := nodes[g.atGrant.Holding[t.Rand.IntN(len(g.atGrant.Holding))]]
	if err := restartEmptyProven(ctx, t, victim); err != nil {
		return err
	}
	after, err := lab.ReadQuorumNodes(ctx, nodes, lease.Key, lease.Token)
	if err != nil {
		return lab.Failed("observe", err)
	}
	if err := v.subset.admits(g.atGrant, after, len(nodes)); err != nil {
		return err
	}
	t.Prove("%s's key on nodes %v at its grant, on %v after %s restarted; other owners' keys on %v",
		a.ID, g.atGrant.Holding, after.Holding, victim.Name(), after.Foreign)

	// With a quorum of nodes free B must get in, however long its attempts take the
	// machine; otherwise the nodes still holding keys refuse it at once.
	try := briefTry
	if len(nodes)-len(after.Holding)-len(after.Foreign) >= quorumOf(len(nodes)) {
		try = min(tryAfterHolder, time.Until(lease.ValidUntil)) // past it, an overlap is A's own
	}
	if err := secondTry(ctx, b, lease.Key, ttl, res, try, 0); err != nil {
		return err
	}
	return finishHolder(ctx, a, res, lease, ttl)
}

// restartEmptyProven restarts n with no data and proves it did by its new run_id.
func restartEmptyProven(ctx context.Context, t *lab.Trial, n topologies.Node) error {
	before, err := redisadmin.RunID(ctx, n.Addr())
	if err != nil {
		return lab.Failed("observe", err)
	}
	if _,
		err := nemesis.Inject(ctx, "node-restart-empty",
		nemesis.Target{Nodes: []topologies.Node{n}, Recorder: t.Rec}); err != nil {
		return lab.Failed("nemesis", err)
	}
	after, err := redisadmin.RunID(ctx, n.Addr())
	if err != nil {
		return lab.Failed("observe", err)
	}
	if after == before {
		return lab.NoFault("%s kept run_id %s: it did not restart", n.Name(), after)
	}
	t.Prove("%s restarted empty (run_id %s -> %s)", n.Name(), before[:8], after[:8])
	return nil
}
