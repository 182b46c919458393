package topologies

import (
	"context"
	"fmt"
	"time"
)

// PollLeader asks leader every 20 ms until it names one or ctx ends: the WaitLeader of
// every consensus topology (etcd and ZooKeeper, processes and containers).
func PollLeader(ctx context.Context, leader func(context.Context) (Node, error)) (Node, error) {
	for {
		n, err := leader(ctx)
		if err == nil {
			return n, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%v: %w", err, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
