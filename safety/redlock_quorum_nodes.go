package safety

import (
	"context"
	"fmt"
	"sync"

	"github.com/lockbench/lockbench/topologies"
)

// quorumNodes is one read of a lock key on every Redlock node, all nodes at once so
// that the read sits as close to the moment it describes as the nodes allow.
type quorumNodes struct {
	holding []int // nodes whose key holds the token asked about
	foreign []int // nodes whose key holds any other value
}

// readQuorumNodes reads key on every node in parallel; a node that does not answer
// fails the read, since a missing answer is neither "held" nor "free".
func readQuorumNodes(ctx context.Context, nodes []topologies.Node, key, token string) (quorumNodes, error) {
	states := make([]topologies.KeyState, len(nodes))
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			states[i], errs[i] = topologies.ReadKey(ctx, n.Addr(), key)
		}()
	}
	wg.Wait()
	var out quorumNodes
	for i, s := range states {
		if errs[i] != nil {
			return quorumNodes{}, fmt.Errorf("read %s on %s: %w", key, nodes[i].Name(), errs[i])
		}
		switch {
		case s.Present && s.Value == token:
			out.holding = append(out.holding, i)
		case s.Present:
			out.foreign = append(out.foreign, i)
		}
	}
	return out, nil
}

// countLockKeys counts, over keys, the nodes still holding each: after every client
// released, each one is a partial lock nobody will free before its TTL.
func countLockKeys(ctx context.Context, nodes []topologies.Node, keys []string) (int, error) {
	left := 0
	for _, key := range keys {
		read, err := readQuorumNodes(ctx, nodes, key, "")
		if err != nil {
			return 0, err
		}
		left += len(read.holding) + len(read.foreign)
	}
	return left, nil
}
