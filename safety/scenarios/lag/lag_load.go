package lag

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// backgroundLoad writes to the master at a target rate (0: none; saturate: as fast as
// its writers can) for as long as it runs, and counts the writes acknowledged, so
// that a trial proves the rate it ran under.
type backgroundLoad struct {
	acked  atomic.Int64
	cancel context.CancelFunc
	done   sync.WaitGroup
	errMu  sync.Mutex
	err    error
	start  time.Time
}

// loadWriters and loadBatch shape the load: each writer pipelines loadBatch SETs of
// a 64-byte value per round trip.
const (
	loadWriters = 4
	loadBatch   = 10
)

// startLoad begins writing to addr at rate writes/s (saturate ignores rate).
func startLoad(ctx context.Context, addr string, rate int, saturate bool) *backgroundLoad {
	l := &backgroundLoad{start: time.Now()}
	if rate == 0 && !saturate {
		return l
	}
	ctx, l.cancel = context.WithCancel(ctx)
	value := fmt.Sprintf("%064d", 0)
	for w := 0; w < loadWriters; w++ {
		l.done.Add(1)
		go func(w int) {
			defer l.done.Done()
			c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, Protocol: 2, DisableIdentity: true, PoolSize: 1})
			defer c.Close()
			// Each writer paces its share of the rate in batches.
			var every time.Duration
			if !saturate {
				every = time.Duration(float64(time.Second) * loadBatch * loadWriters / float64(rate))
			}
			next := time.Now()
			for i := 0; ctx.Err() == nil; i++ {
				_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
					for b := 0; b < loadBatch; b++ {
						p.Set(ctx, fmt.Sprintf("load:%d:%d", w, (i*loadBatch+b)%10000), value, 0)
					}
					return nil
				})
				if err != nil {
					if ctx.Err() == nil {
						l.fail(fmt.Errorf("background writer %d: %w", w, err))
					}
					return
				}
				l.acked.Add(loadBatch)
				if every > 0 {
					next = next.Add(every)
					select {
					case <-ctx.Done():
					case <-time.After(time.Until(next)):
					}
				}
			}
		}(w)
	}
	return l
}

func (l *backgroundLoad) fail(err error) {
	l.errMu.Lock()
	defer l.errMu.Unlock()
	if l.err == nil {
		l.err = err
	}
}

// stop ends the load and returns the rate it achieved and its first error.
func (l *backgroundLoad) stop() (perSecond float64, err error) {
	if l.cancel != nil {
		l.cancel()
	}
	l.done.Wait()
	l.errMu.Lock()
	defer l.errMu.Unlock()
	return float64(l.acked.Load()) / time.Since(l.start).Seconds(), l.err
}
