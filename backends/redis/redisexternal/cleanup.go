package redisexternal

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/external"
)

// cleanup deletes every key under the run's prefix on every master (SCAN MATCH, then
// UNLINK: never KEYS, which blocks the server). It returns how many keys it deleted.
func cleanup(ctx context.Context, s external.Servers, prefix string) (int64, error) {
	opts := redisconn.Options{PoolSize: 1, Access: s.Access, KeyPrefix: prefix}
	var clients []*redis.Client
	if len(s.Sentinels) > 0 {
		// Whoever is master now holds the keys, also after a failover.
		opts.SentinelAccess = s.SentinelAccess
		clients = append(clients,
			redisconn.NewFailoverClient(topologies.Addrs(s.Sentinels), s.Spec.MasterName, redisconn.PurposeCleanup, opts))
	} else {
		for _, m := range s.Masters {
			clients = append(clients, redisconn.NewClient(m.Addr(), redisconn.PurposeCleanup, opts))
		}
	}
	var total int64
	var errs []error
	for i, c := range clients {
		n, err := deletePrefix(ctx, c, prefix)
		total += n
		if err != nil {
			errs = append(errs, fmt.Errorf("delete keys %s* on server %d: %w", prefix, i, err))
		}
		c.Close()
	}
	return total, errors.Join(errs...)
}

// deletePrefix scans c's keyspace for prefix* and unlinks what it finds, a batch at a time.
func deletePrefix(ctx context.Context, c *redis.Client, prefix string) (int64, error) {
	var cursor uint64
	var total int64
	for {
		keys, next, err := c.Scan(ctx, cursor, prefix+"*", 1000).Result()
		if err != nil {
			return total, err
		}
		if len(keys) > 0 {
			n, err := c.Unlink(ctx, keys...).Result()
			total += n
			if err != nil {
				return total, err
			}
		}
		if cursor = next; cursor == 0 {
			return total, nil
		}
	}
}
