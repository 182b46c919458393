package sweep

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/internal/sleep"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
)

// rendezvous agrees each cell's start with the other workers through keys on the
// target, and reads the target's clock. It sends only INCR, GET, SET, TIME and PING
// (the "rendezvous" allow-list of a deployment lockbench does not own).
type rendezvous struct {
	client *redis.Client
	runID  string
	lead   time.Duration
	wait   time.Duration
	poll   time.Duration
}

// openRendezvous dials the topology's first master; only Redis deployments have one.
func openRendezvous(topo topologies.Topology, runID string, w Worker) (*rendezvous, error) {
	if !backend.KindIs[backend.RedisProtocol](linked.Catalog(), topo.Spec().Kind) {
		return nil, fmt.Errorf(
			"workers agree their start and read the target's clock on a Redis master; a %s topology has none", topo.Spec().Kind)
	}
	// On servers not ours its keys, like every other, stay under the run's prefix.
	opts := redisconn.Options{PoolSize: 2, Access: topologies.AccessOf(topo), KeyPrefix: topologies.KeyPrefixOf(topo)}
	client := redisconn.NewClient(topo.Masters()[0].Addr(), redisconn.PurposeRendezvous, opts)
	lead, wait := w.Lead, w.Wait
	if lead <= 0 {
		lead = DefaultRendezvousLead
	}
	if wait <= 0 {
		wait = DefaultRendezvousWait
	}
	return &rendezvous{client: client, runID: runID, lead: lead, wait: wait, poll: 10 * time.Millisecond}, nil
}

func (z *rendezvous) Close() error { return z.client.Close() }

// agree counts this worker in at cell index and returns the start the last of the
// workers to arrive set (its wall time plus the lead); it fails the cell, naming how
// many arrived, if not all of them do within the wait.
func (z *rendezvous) agree(ctx context.Context, index int, name string, workers int) (time.Time, error) {
	arrivals := fmt.Sprintf("lockbench:%s:rendezvous:%d", z.runID, index)
	startKey := fmt.Sprintf("lockbench:%s:start:%d", z.runID, index)
	n, err := z.client.Incr(ctx, arrivals).Result()
	if err != nil {
		return time.Time{}, fmt.Errorf("rendezvous for cell %s: %w", name, err)
	}
	if n > int64(workers) {
		return time.Time{}, fmt.Errorf(
			"rendezvous for cell %s: %d arrivals for %d workers: run id %q was used before, or two workers share an "+
				"index", name, n, workers, z.runID)
	}
	if n == int64(workers) {
		at := time.Now().Add(z.lead).UnixMilli()
		// An hour outlives any wait; the arrival counter stays for the run's cleanup.
		if err := z.client.Set(ctx, startKey, at, time.Hour).Err(); err != nil {
			return time.Time{}, fmt.Errorf("rendezvous for cell %s: %w", name, err)
		}
	}
	deadline := time.Now().Add(z.wait)
	for {
		v, err := z.client.Get(ctx, startKey).Result()
		if err == nil {
			ms, perr := strconv.ParseInt(v, 10, 64)
			if perr != nil {
				return time.Time{}, fmt.Errorf("rendezvous for cell %s: %s holds %q, not a time in unix ms", name, startKey, v)
			}
			return time.UnixMilli(ms), nil
		}
		if !errors.Is(err, redis.Nil) {
			return time.Time{}, fmt.Errorf("rendezvous for cell %s: %w", name, err)
		}
		if time.Now().After(deadline) {
			arrived, _ := z.client.Get(ctx, arrivals).Int64()
			return time.Time{},
				fmt.Errorf("rendezvous for cell %s timed out after %v: %d of %d workers arrived", name, z.wait, arrived, workers)
		}
		if !sleep.For(ctx, z.poll) {
			return time.Time{}, ctx.Err()
		}
	}
}

// clockOffset is the target's clock minus this host's, read as Redis TIME against the
// midpoint of the round trip; the shortest of a few round trips bounds the error best.
func (z *rendezvous) clockOffset(ctx context.Context) (time.Duration, error) {
	best := time.Duration(-1)
	var offset time.Duration
	for range 5 {
		sent := time.Now()
		at, err := z.client.Time(ctx).Result()
		back := time.Now()
		if err != nil {
			return 0, fmt.Errorf("read the target's clock: %w", err)
		}
		if rtt := back.Sub(sent); best < 0 || rtt < best {
			best = rtt
			offset = at.Sub(sent.Add(rtt / 2))
		}
	}
	return offset, nil
}

// sleepUntil waits until at (this host's clock) or ctx ends.
func sleepUntil(ctx context.Context, at time.Time) bool {
	if d := time.Until(at); d > 0 {
		return sleep.For(ctx, d)
	}
	return ctx.Err() == nil
}
