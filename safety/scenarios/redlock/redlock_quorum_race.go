package redlock

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

// quorumRaceRounds bounds the races run for one grant: with several clients a round
// can split the nodes so that nobody reaches a quorum.
const quorumRaceRounds = 5

// quorumGrant is the winner of a race and where its key was right after the grant.
type quorumGrant struct {
	client  *lab.Client
	lease   locks.Lease
	atGrant lab.QuorumNodes
	keys    []string // every round's key, for the partial-lock count
}

// raceForQuorum starts every client's single acquire at once on a fresh key per round
// until one is granted. The winner reads its key on all nodes in its own goroutine,
// before the others are waited for: that read is the grant's, not the race's end.
func raceForQuorum(ctx context.Context, clients []*lab.Client, nodes []topologies.Node, key string,
	ttl time.Duration) (*quorumGrant, error) {
	var keys []string
	for round := 0; round < quorumRaceRounds; round++ {
		k := fmt.Sprintf("%s:round-%d", key, round)
		keys = append(keys, k)
		g, err := raceRound(ctx, clients, nodes, k, ttl)
		if err != nil || g != nil {
			if g != nil {
				g.keys = keys
			}
			return g, err
		}
	}
	return nil, lab.NoFault("%d rounds of %d clients racing: no client reached a quorum", quorumRaceRounds, len(clients))
}

// raceRound is one race: nil when nobody won.
func raceRound(ctx context.Context, clients []*lab.Client, nodes []topologies.Node, key string,
	ttl time.Duration) (*quorumGrant, error) {
	start := make(chan struct{})
	var (
		mu     sync.Mutex
		wg     sync.WaitGroup
		grants []*quorumGrant
		errs   []error
	)
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			lease, err := c.Acquire(ctx, key, ttl)
			if err != nil {
				if !errors.Is(err, locks.ErrNotAcquired) {
					mu.Lock()
					errs = append(errs, fmt.Errorf("client %s: %w", c.ID, err))
					mu.Unlock()
				}
				return
			}
			read, err := lab.ReadQuorumNodes(ctx, nodes, key, lease.Token)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			}
			grants = append(grants, &quorumGrant{client: c, lease: lease, atGrant: read})
		}()
	}
	close(start)
	wg.Wait()
	switch {
	case len(errs) > 0:
		return nil, lab.Failed("acquire", errors.Join(errs...))
	case len(grants) > 1:
		return nil, lab.Failed("acquire", fmt.Errorf(
			"%d clients granted %s in one race: Redlock's majority should admit one", len(grants), key))
	case len(grants) == 1:
		return grants[0], nil
	}
	return nil, nil
}

// newQuorumClients makes n clients of strategy, each with its own connections.
func newQuorumClients(ctx context.Context, t *lab.Trial, topo topologies.Topology, strategy string,
	ids ...string) ([]*lab.Client, func(), error) {
	var clients []*lab.Client
	closeAll := func() {
		for _, c := range clients {
			c.Locker.Close()
		}
	}
	for _, id := range ids {
		l, err := locks.ForTopology(ctx, strategy, topo, locks.Options{})
		if err != nil {
			closeAll()
			return nil, nil, lab.Failed("setup", fmt.Errorf("%s locker for client %s: %w", strategy, id, err))
		}
		clients = append(clients, lab.NewClient(id, l, t.Rec))
	}
	return clients, closeAll, nil
}

// racerIDs names n racing clients A, C, D...: B is kept for the client that tries after
// the restart.
func racerIDs(n int) []string {
	ids := []string{"A"}
	for i := 0; len(ids) < n; i++ {
		ids = append(ids, string(rune('C'+i)))
	}
	return ids
}
