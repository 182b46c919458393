package lab

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// QuorumNodes is one read of a lock key on every Redlock node, all nodes at once so
// that the read sits as close to the moment it describes as the nodes allow.
type QuorumNodes struct {
	Holding []int // nodes whose key holds the token asked about
	Foreign []int // nodes whose key holds any other value
}

// ReadQuorumNodes reads key on every node in parallel; a node that does not answer
// fails the read, since a missing answer is neither "held" nor "free".
func ReadQuorumNodes(ctx context.Context, nodes []topologies.Node, key, token string) (QuorumNodes, error) {
	states := make([]redisadmin.KeyState, len(nodes))
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			states[i], errs[i] = redisadmin.ReadKey(ctx, n.Addr(), key)
		}()
	}
	wg.Wait()
	var out QuorumNodes
	for i, s := range states {
		if errs[i] != nil {
			return QuorumNodes{}, fmt.Errorf("read %s on %s: %w", key, nodes[i].Name(), errs[i])
		}
		switch {
		case s.Present && s.Value == token:
			out.Holding = append(out.Holding, i)
		case s.Present:
			out.Foreign = append(out.Foreign, i)
		}
	}
	return out, nil
}

// CountLockKeys counts, over keys, the nodes still holding each: after every client
// released, each one is a partial lock nobody will free before its TTL.
func CountLockKeys(ctx context.Context, nodes []topologies.Node, keys []string) (int, error) {
	left := 0
	for _, key := range keys {
		read, err := ReadQuorumNodes(ctx, nodes, key, "")
		if err != nil {
			return 0, err
		}
		left += len(read.Holding) + len(read.Foreign)
	}
	return left, nil
}

// NodeName is the name of the i-th Redlock master.
func NodeName(i int) string { return fmt.Sprintf("master-%d", i) }

// ProvedEmpty reads the key on nodes restarted without data: they must have come
// back without it. The reads are not recorded as observations: A never held these
// nodes, so their empty keys are no lost lock of A's.
func ProvedEmpty(ctx context.Context, topo topologies.Topology, nodes []topologies.Node, key string) (string, error) {
	var names []string
	for _, n := range nodes {
		s, err := readKeyPatiently(ctx, RedisKeys{}, topo, n, key)
		if err != nil {
			return "", Failed("observe", fmt.Errorf("read %s on %s: %w", key, n.Name(), err))
		}
		if s.Present {
			return "", NoFault("%s came back from its restart holding the key (%s)", n.Name(), s.Value)
		}
		names = append(names, n.Name())
	}
	return fmt.Sprintf("%s came back from the restart without the key, before B's first attempt",
		strings.Join(names, ", ")), nil
}

// Keys lists a node set's indexes in order.
func Keys(set map[int]bool) []int {
	var out []int
	for i := range 5 {
		if set[i] {
			out = append(out, i)
		}
	}
	return out
}
