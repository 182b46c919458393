package redisadmin

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/topologies"
	"github.com/redis/go-redis/v9"
)

// WaitReplicasOnline waits until the master has want replicas with state=online that
// also acknowledge writes: after a diskless sync, Redis holds the command stream until
// a replica's first ACK, and until then every WAIT times out. Every provider that
// starts replicated Redis waits with it.
func WaitReplicasOnline(ctx context.Context, masterAddr string, want int) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c := AdminClient(masterAddr)
	defer c.Close()
	var last ReplicationInfo
	for {
		info, err := Replication(ctx, masterAddr)
		if err == nil {
			last = info
			if Online(info) >= want && writeAcknowledged(ctx, c, want) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("replicas of %s not online (want %d, have %+v): %w", masterAddr, want, last.Replicas, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// Online counts the replicas the master reports online.
func Online(info ReplicationInfo) int {
	n := 0
	for _, r := range info.Replicas {
		if r.State == "online" {
			n++
		}
	}
	return n
}

// writeAcknowledged writes a marker key and reports whether want replicas acknowledged it.
func writeAcknowledged(ctx context.Context, c *redis.Client, want int) bool {
	const marker = "lockbench:replication-ready"
	var acked *redis.Cmd
	_, _ = c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, marker, "1", 0)
		acked = p.Do(ctx, "WAIT", want, 100)
		p.Del(ctx, marker)
		return nil
	})
	n, err := acked.Int()
	return err == nil && n >= want
}

// WaitSentinelsAgree waits until every sentinel names masterAddr as master and sees
// the replicas and all other sentinels, so that a failover can reach its quorum at once.
func WaitSentinelsAgree(ctx context.Context, sentinels []topologies.Node, masterName, masterAddr string,
	replicas int) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	last := "no answer yet"
	for {
		agreed := 0
		for _, s := range sentinels {
			addr, err := SentinelMasterAddr(ctx, s.Addr(), masterName)
			if err != nil {
				last = fmt.Sprintf("%s: %v", s.Name(), err)
				break
			}
			reps, sens, err := sentinelPeers(ctx, s.Addr(), masterName)
			if err != nil {
				last = fmt.Sprintf("%s: %v", s.Name(), err)
				break
			}
			if addr != masterAddr || reps < replicas || sens < len(sentinels)-1 {
				last = fmt.Sprintf("%s: master %s, %d replicas, %d other sentinels", s.Name(), addr, reps, sens)
				break
			}
			agreed++
		}
		if agreed == len(sentinels) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("sentinels did not agree on master %s (%s): %w", masterAddr, last, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
