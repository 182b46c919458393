package container

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/topologies"
)

// waitReplicasOnline waits until the master has want online replicas that acknowledge a
// write (WAIT): until a replica's first ACK after a diskless sync, every WAIT times out.
func waitReplicasOnline(ctx context.Context, masterAddr string, want int) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c := adminClient(masterAddr)
	defer c.Close()
	var last topologies.ReplicationInfo
	for {
		if info, err := topologies.Replication(ctx, masterAddr); err == nil {
			last = info
			if online(info) >= want && acknowledged(ctx, c, want) {
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

func online(info topologies.ReplicationInfo) int {
	n := 0
	for _, r := range info.Replicas {
		if r.State == "online" {
			n++
		}
	}
	return n
}

func acknowledged(ctx context.Context, c *redis.Client, want int) bool {
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

// waitSentinelsAgree waits until every sentinel names masterAddr, sees the replicas and
// every other sentinel, so that a failover can reach its quorum at once.
func waitSentinelsAgree(ctx context.Context, sentinels []*node, masterName, masterAddr string, replicas int) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	last := "no answer yet"
	for {
		agreed := 0
		for _, s := range sentinels {
			if ok, why := sentinelAgrees(ctx, s.Addr(), masterName, masterAddr, replicas, len(sentinels)-1); !ok {
				last = s.name + ": " + why
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

func sentinelAgrees(ctx context.Context, addr, masterName, masterAddr string, replicas, others int) (bool, string) {
	got, err := topologies.SentinelMasterAddr(ctx, addr, masterName)
	if err != nil {
		return false, err.Error()
	}
	c := adminClient(addr)
	defer c.Close()
	reps, err := c.Do(ctx, "SENTINEL", "replicas", masterName).Slice()
	if err != nil {
		return false, err.Error()
	}
	up := 0
	for _, r := range reps {
		if !strings.Contains(flagsOf(r), "down") {
			up++
		}
	}
	sens, err := c.Do(ctx, "SENTINEL", "sentinels", masterName).Slice()
	if err != nil {
		return false, err.Error()
	}
	if got != masterAddr || up < replicas || len(sens) < others {
		return false, fmt.Sprintf("master %s, %d replicas, %d other sentinels", got, up, len(sens))
	}
	return true, ""
}

// flagsOf reads the flags field of a RESP2 key/value list.
func flagsOf(entry any) string {
	kv, _ := entry.([]any)
	for i := 0; i+1 < len(kv); i += 2 {
		if fmt.Sprint(kv[i]) == "flags" {
			return fmt.Sprint(kv[i+1])
		}
	}
	return ""
}
