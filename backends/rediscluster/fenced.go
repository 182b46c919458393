package rediscluster

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backends/redis/redislock"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
)

// StrategyFenced is cluster whose grants carry a fence: one script sets the lock key
// and INCRs a counter kept in the same hash slot, on the key's master.
const StrategyFenced = "cluster-fenced"

// fencedAcquire takes KEYS[1] for ARGV[1] (ttl ARGV[2] ms) and, only then, returns the
// next value of the counter KEYS[2]; 0 when the key is taken.
var fencedAcquire = redis.NewScript(`
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  return redis.call("INCR", KEYS[2])
end
return 0`)

// FenceKey is the counter beside key, in key's hash slot: a key with a {tag} keeps it
// (the first {...} of both); a key without one hashes whole, as fence:{key} does when
// key has no "}". A key hashed whole that has a "}" has no such name: an error.
func FenceKey(key string) (string, error) {
	if open := strings.IndexByte(key, '{'); open >= 0 {
		if end := strings.IndexByte(key[open+1:], '}'); end > 0 {
			return "fence:" + key, nil
		}
	}
	if strings.IndexByte(key, '}') >= 0 {
		return "", fmt.Errorf(
			"key %q: hashed whole (no {tag}) yet holds a }: no fence key shares its slot; give it a {tag}", key)
	}
	return "fence:{" + key + "}", nil
}

// clusterFenced is the cluster locker whose acquire is the fenced script.
type clusterFenced struct{ *clusterLocker }

// NewClusterFenced locks on the cluster the seeds belong to, numbering each grant.
func NewClusterFenced(ctx context.Context, seeds []string, opts redisconn.Options) (locks.Locker, error) {
	return newFenced(ctx, seeds, StrategyFenced, opts)
}

// newFenced is the fenced cluster locker whose commands pass purpose's allow-list.
func newFenced(ctx context.Context, seeds []string, purpose string, opts redisconn.Options) (*clusterFenced, error) {
	l, err := newClusterLocker(ctx, seeds, purpose, opts)
	if err != nil {
		return nil, err
	}
	if err := redislock.LoadScript(ctx, l.client, fencedAcquire); err != nil {
		l.Close()
		return nil, fmt.Errorf("%s: load script: %w", purpose, err)
	}
	return &clusterFenced{l}, nil
}

func (f *clusterFenced) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	if ttl <= 0 {
		return locks.Lease{}, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	fenceKey, err := FenceKey(key)
	if err != nil {
		return locks.Lease{}, err
	}
	lease := locks.Lease{Key: key, Token: locks.NewToken(), Start: time.Now()}
	fence, err := fencedAcquire.Run(ctx, f.client, []string{key, fenceKey}, lease.Token, ttl.Milliseconds()).Int64()
	f.reloadAfter(ctx, err)
	if err != nil {
		if ctx.Err() != nil {
			f.GiveBack(ctx, lease) // cut off: the script may have run
		}
		return locks.Lease{}, err
	}
	if fence == 0 {
		return locks.Lease{}, locks.ErrNotAcquired
	}
	lease.Fence, lease.HasFence = fence, true
	lease.ValidUntil = lease.Start.Add(ttl)
	return lease, nil
}
