package redisadmin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Node-level admin helpers for fault injection and observation. They speak to one
// server address with a no-retry client, so a dead or paused node shows as an error.

// ClientPauseAll runs CLIENT PAUSE d ALL on addr: the server stops processing every
// client, its master's replication stream included, for d.
func ClientPauseAll(ctx context.Context, addr string, d time.Duration) error {
	return AdminDo(ctx, addr, "CLIENT", "PAUSE", d.Milliseconds(), "ALL")
}

// ClientUnpause ends a CLIENT PAUSE on addr early.
func ClientUnpause(ctx context.Context, addr string) error {
	return AdminDo(ctx, addr, "CLIENT", "UNPAUSE")
}

// KillReplicaLinks runs CLIENT KILL TYPE replica on a master: every replica's link drops.
func KillReplicaLinks(ctx context.Context, masterAddr string) error {
	return AdminDo(ctx, masterAddr, "CLIENT", "KILL", "TYPE", "replica")
}

// KeyState is one key as one server holds it.
type KeyState struct {
	Present bool
	Value   string
	TTL     time.Duration // -1 when the key has no expiry; 0 when absent
}

// ReadKey reads key's value and PTTL on addr in one round trip.
func ReadKey(ctx context.Context, addr, key string) (KeyState, error) {
	c := AdminClient(addr)
	defer c.Close()
	return ReadKeyWith(ctx, c, key)
}

// ReadKeyWith reads key's value and PTTL in one round trip on c (a TTL below 0: none).
func ReadKeyWith(ctx context.Context, c *redis.Client, key string) (KeyState, error) {
	var get *redis.StringCmd
	var pttl *redis.DurationCmd
	_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
		get = p.Get(ctx, key)
		pttl = p.PTTL(ctx, key)
		return nil
	})
	if errors.Is(get.Err(), redis.Nil) {
		return KeyState{}, nil
	}
	if err != nil {
		return KeyState{}, err
	}
	s := KeyState{Present: true, Value: get.Val(), TTL: pttl.Val()}
	if s.TTL < 0 {
		s.TTL = -1
	}
	return s, nil
}

// WaitForNewMaster polls the sentinels until a majority of those that answer name a
// master other than oldAddr, or ctx ends. It never hangs past ctx: a promotion that does
// not come is an outcome for the caller to report.
func WaitForNewMaster(ctx context.Context, sentinelAddrs []string, masterName, oldAddr string) (string, error) {
	last := "no sentinel answered"
	for {
		votes := map[string]int{}
		for _, s := range sentinelAddrs {
			qctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
			addr, err := SentinelMasterAddr(qctx, s, masterName)
			cancel()
			if err != nil {
				last = err.Error()
				continue
			}
			votes[addr]++
		}
		for addr, n := range votes {
			if addr != oldAddr && n > len(sentinelAddrs)/2 {
				if info, err := Replication(ctx, addr); err == nil && info.Role == "master" {
					return addr, nil
				}
			}
		}
		if len(votes) > 0 {
			last = fmt.Sprintf("sentinels name %v", votes)
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("no promotion away from %s (%s): %w", oldAddr, last, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// CurrentRole asks addr for its current role: "master" or "slave".
func CurrentRole(ctx context.Context, addr string) (string, error) {
	info, err := Replication(ctx, addr)
	return info.Role, err
}

// AdminSet writes key=value on addr directly, no expiry unless ttl > 0: probes of
// whether a server still accepts writes (a zombie master) use it.
func AdminSet(ctx context.Context, addr, key, value string, ttl time.Duration) error {
	c := AdminClient(addr)
	defer c.Close()
	return c.Set(ctx, key, value, ttl).Err()
}
