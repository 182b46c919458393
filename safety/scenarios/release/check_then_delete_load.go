package release

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// loadShape is the natural-rate load of check-then-delete.
type loadShape struct {
	ttl, window time.Duration // each hold ends uniformly in [ttl-window, ttl] after its grant
	clients     int
	length      time.Duration
}

// cutShortMargin keeps the victim's side of the count sound: Redis expires a key only
// once its ms clock passes grant + TTL, which is after the client's ValidUntil; a key
// found gone this long before ValidUntil was removed by someone.
const cutShortMargin = 200 * time.Microsecond

// loadTally is what the clients of one load trial saw.
type loadTally struct {
	mu                          sync.Mutex
	grants, releases, nearEnd   int
	foreign, gapExpired, cutOff int
	firstErr                    error
}

func (l *loadTally) add(f func(*loadTally)) { l.mu.Lock(); f(l); l.mu.Unlock() }

// releaseUnderLoad runs shape's clients on one key for shape.length, nothing recorded
// in the history (hundreds of grants; a holder that overruns its TTL by a few µs would
// fill the mutual-exclusion count with what is not the gap): the counts are read from
// the store itself, each DEL's answer and each release's refusal.
func releaseUnderLoad(ctx context.Context, addr string, getThenDel bool, shape loadShape, t *lab.Trial) error {
	ctx, cancel := context.WithTimeout(ctx, shape.length+30*time.Second)
	defer cancel()
	var tally loadTally
	var lockers []locks.Locker
	defer func() {
		for _, l := range lockers {
			l.Close()
		}
	}()
	for i := 0; i < shape.clients; i++ {
		l, err := locks.AtAddrs(ctx, "single", []string{addr}, locks.Options{Options: redisconn.Options{PoolSize: 2}})
		if err != nil {
			return lab.Failed("setup", err)
		}
		if getThenDel {
			g := newGetThenDelRelease(l, addr)
			g.deleted = func(lease locks.Lease, _ time.Time, removed string) {
				tally.add(func(x *loadTally) {
					switch removed {
					case lease.Token:
					case "":
						x.gapExpired++ // the TTL ran out in the gap, and nobody had taken the key yet
					default:
						x.foreign++
					}
				})
			}
			l = g
		}
		lockers = append(lockers, l)
	}
	// Every client draws its holds from its own stream of the trial's seed.
	seeds := make([]uint64, len(lockers))
	for i := range seeds {
		seeds[i] = t.Rand.Uint64()
	}
	end := time.Now().Add(shape.length)
	var wg sync.WaitGroup
	for i, l := range lockers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			holdLoop(ctx, l, t.Key, shape, end, seeds[i], &tally)
		}()
	}
	wg.Wait()
	if tally.firstErr != nil {
		return lab.Failed("load", tally.firstErr)
	}
	t.Input("grants", float64(tally.grants))
	t.Input("releases_near_end", float64(tally.nearEnd))
	t.Input("gap_expired_unowned", float64(tally.gapExpired))
	if tally.nearEnd == 0 {
		return lab.NoFault("no release of %d grants started within %v of its lease's end", tally.grants, shape.window)
	}
	t.Count(results.CutShort, tally.cutOff)
	if getThenDel {
		t.Count(results.ForeignDeletes, tally.foreign)
	}
	t.Prove("%d clients, %d grants; %d releases started within %v of their lease's end (%d DELs found the key already "+
		"expired and free)",
		shape.clients, tally.grants, tally.nearEnd, shape.window, tally.gapExpired)
	return nil
}

// holdLoop takes the key, holds it until a random instant in the last window of its
// TTL, releases, and starts over, until end.
func holdLoop(ctx context.Context, l locks.Locker, key string, shape loadShape, end time.Time, seed uint64,
	tally *loadTally) {
	rnd := rand.New(rand.NewPCG(seed, 0))
	for ctx.Err() == nil && time.Now().Before(end) {
		lease, err := l.Acquire(ctx, key, shape.ttl)
		if errors.Is(err, locks.ErrNotAcquired) {
			continue // retry at once: the next SET NX lands within a round trip of the expiry
		}
		if err != nil {
			tally.add(func(x *loadTally) { x.firstErr = cmpOr(x.firstErr, fmt.Errorf("acquire: %w", err)) })
			return
		}
		hold := shape.ttl - time.Duration(rnd.Int64N(int64(shape.window)+1))
		waitUntil(lease.Start.Add(hold))
		started := time.Now()
		err = l.Release(ctx, lease)
		returned := time.Now()
		tally.add(func(x *loadTally) {
			x.grants++
			if started.After(lease.ValidUntil.Add(-shape.window)) {
				x.nearEnd++
			}
			switch {
			case errors.Is(err, locks.ErrNotHeld):
				if returned.Before(lease.ValidUntil.Add(-cutShortMargin)) {
					x.cutOff++
				}
			case err != nil:
				x.firstErr = cmpOr(x.firstErr, fmt.Errorf("release: %w", err))
			}
		})
	}
}

// waitUntil sleeps most of the way and spins the rest: a timer alone overshoots by
// tens of µs, as much as the gap being measured.
func waitUntil(at time.Time) {
	if d := time.Until(at) - 300*time.Microsecond; d > 0 {
		time.Sleep(d)
	}
	for time.Now().Before(at) {
	}
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
