package ttl

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// expiryReadMargin: a read this long past the TTL finds the key gone. Redis keeps
// expiries in whole milliseconds, so a few are enough; a hold longer than TTL plus
// this is read then, rather than waited out.
const expiryReadMargin = 5 * time.Millisecond

// redisExpiryGranularity: Redis computes an expiry from its clock in whole ms, so a
// key may go up to 1 ms before its exact TTL.
const redisExpiryGranularity = time.Millisecond

// expiryTrial: A takes the lock, works a drawn hold (its watchdog extending, in the
// watchdog variants) and reads its key at the end: gone or another's is the TTL
// expired mid-work. The read is the proof either way.
func expiryTrial(ctx context.Context, topo topologies.Topology, v *ttlVariant, t *lab.Trial) error {
	addr := topo.Masters()[0].Addr()
	l, err := locks.AtAddrs(ctx, "single", []string{addr}, locks.Options{})
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer l.Close()
	reader := lab.PlainClient(addr) // A's own connection for its reads, opened before the clock starts
	defer reader.Close()
	if err := reader.Ping(ctx).Err(); err != nil {
		return lab.Failed("setup", fmt.Errorf("PING %s: %w", addr, err))
	}
	timed := newTimedLocker(l, 0)
	a := lab.NewClient("A", timed, t.Rec)
	hold := v.dist.draw(t.Rand)
	t.Input("hold_ms", lab.Millis(hold))
	t.Input("ttl_ms", lab.Millis(v.ttl))
	sent := time.Now() // the key's TTL starts at the server's SET, after this
	lease, err := a.Acquire(ctx, t.Key, v.ttl)
	if err != nil {
		return lab.FirstGrant(err)
	}
	start := time.Now() // A's work starts when its grant replied
	stopWatchdog := func() {}
	if v.watchdog {
		stopWatchdog = a.Watchdog(ctx, lease, v.ttl)
	}
	defer func() { stopWatchdog() }()
	end := start.Add(hold)
	readAt := end
	if !v.watchdog && hold > v.ttl+expiryReadMargin {
		readAt = start.Add(v.ttl + expiryReadMargin)
	}
	for {
		if err := lab.Sleep(ctx, time.Until(readAt)); err != nil {
			return err
		}
		state, err := readOwnKey(ctx, t, reader, t.Key)
		if err != nil {
			return err
		}
		after := time.Since(start)
		held := state.Present && state.Value == lease.Token
		if held && readAt.Before(end) {
			readAt = end // the key outlived TTL + margin: read again when the work ends
			continue
		}
		stopWatchdog()
		stopWatchdog = func() {}
		if sinceSent := time.Since(sent); !v.watchdog && !held && stalledPastTTL(hold, v.ttl, sinceSent) {
			return lab.NoFault("A's read came %v after its grant was sent (%v after the grant), past the TTL %v that "+
				"its %v of work fits in: the process stalled, so the key's expiry says nothing of the work",
				sinceSent.Round(100*time.Microsecond), after.Round(100*time.Microsecond), v.ttl,
				hold.Round(100*time.Microsecond))
		}
		expired := 0
		if !held {
			expired = 1
		}
		t.Count(results.ExpiredMidWork, expired)
		t.Input("read_after_ms", lab.Millis(after))
		if v.watchdog {
			countWatchdogTiming(t, timed.longestReach(time.Now()), v.ttl, expired)
		}
		t.Prove("A read its key %v after its grant (hold %v, TTL %v, %d extensions): %s", after.Round(100*time.Microsecond),
			hold.Round(100*time.Microsecond), v.ttl, extensionsOf(t.Rec.History(), "A"),
			sentinelrig.DescribeKey(state, lease.Token))
		if held {
			_ = a.Release(ctx, lease)
		}
		return nil
	}
}

// stalledPastTTL says A's read came a TTL or more after its grant was sent although its
// work was shorter: a key found gone then expired under the stall, not under the work.
// It counts from the send: the TTL starts at the server's SET, and a slow reply moves
// the grant's own time later (under load, a read 260 ms after it found a 300 ms key gone).
func stalledPastTTL(hold, ttl, readAfter time.Duration) bool {
	return hold < ttl && readAfter >= ttl-redisExpiryGranularity
}

// countWatchdogTiming tells a watchdog that failed from one that ran late: late when
// some write (or the final read) answered a TTL or more after the previous write was
// sent, which the key need not outlive; an expiry without that is the watchdog's fault.
func countWatchdogTiming(t *lab.Trial, reach, ttl time.Duration, expired int) {
	late := 0
	if reach >= ttl-redisExpiryGranularity {
		late = 1
	}
	t.Input("longest_reach_ms", lab.Millis(reach))
	t.Count(results.WatchdogLate, late)
	t.Count(results.ExpiredOnTime, expired*(1-late))
}

// readOwnKey reads key's value and PTTL in one round trip on c, recorded as A's read.
func readOwnKey(ctx context.Context, t *lab.Trial, c *redis.Client, key string) (redisadmin.KeyState, error) {
	s, err := redisadmin.ReadKeyWith(ctx, c, key)
	if err != nil {
		return redisadmin.KeyState{}, lab.Failed("observe", fmt.Errorf("GET and PTTL %s: %w", key, err))
	}
	ttl := s.TTL
	if s.Present && ttl < 0 {
		ttl = history.NoExpiry
	}
	t.Rec.Record(history.Event{Client: "A", Kind: history.Observed, Key: key, Node: c.Options().Addr, Present: s.Present,
		Holder: s.Value, TTL: ttl})
	return s, nil
}

// extensionsOf counts client's successful extensions in h.
func extensionsOf(h history.History, client string) int {
	n := 0
	for _, e := range h {
		if e.Client == client && e.Kind == history.Extended && e.OK {
			n++
		}
	}
	return n
}

// crashTrial: A takes the lock (and, with a watchdog, has it extended a few times)
// and crashes right after its last write to the key replied; B polls until granted.
// The time from the crash to B's grant is how long the lock stayed blocked; it must
// not be shorter than the TTL less the last write's measured round trip.
func crashTrial(ctx context.Context, topo topologies.Topology, c ttlConfig, v *ttlVariant, t *lab.Trial) error {
	master := topo.Masters()[0]
	l, err := locks.AtAddrs(ctx, "single", []string{master.Addr()}, locks.Options{})
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer l.Close()
	timed := newTimedLocker(l, c.crashAfterExtends)
	a := lab.NewClient("A", timed, t.Rec)
	b, err := lab.SingleClient(ctx, "B", master.Addr(), t.Rec)
	if err != nil {
		return err
	}
	defer b.Locker.Close()
	t.Input("ttl_ms", lab.Millis(v.ttl))

	lease, err := a.Acquire(ctx, t.Key, v.ttl)
	if err != nil {
		return lab.FirstGrant(err)
	}
	last := "grant"
	if v.watchdog {
		stop := a.Watchdog(ctx, lease, v.ttl)
		defer stop()
		select {
		case <-timed.reached: // the watchdog's extension #n replied; it waits there for the crash
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(c.crashAfterExtends+2) * v.ttl):
			return lab.NoFault("the watchdog did not extend %d times within %v", c.crashAfterExtends,
				time.Duration(c.crashAfterExtends+2)*v.ttl)
		}
		last = fmt.Sprintf("extension #%d", c.crashAfterExtends)
	}
	if _, err := nemesis.Inject(ctx, "client-crash", nemesis.Target{Client: a, Recorder: t.Rec}); err != nil {
		return lab.Failed("nemesis", err)
	}
	crashed := time.Now()
	timed.letGo()
	sent, replied := timed.lastWrite()
	state, err := lab.ObserveKey(ctx, t, lab.RedisKeys{}, topo, master, t.Key)
	if err != nil {
		return err
	}
	if !state.Present || state.Value != lease.Token {
		return lab.NoFault("A's key was %s right after its crash: the lock was not left blocked",
			sentinelrig.DescribeKey(state, lease.Token))
	}
	pollCtx, cancel := context.WithTimeout(ctx, 10*v.ttl+5*time.Second)
	leaseB, err := b.AcquireUntil(pollCtx, t.Key, v.ttl, c.poll)
	cancel()
	if err != nil {
		return lab.Failed("second-acquire", fmt.Errorf("B polling every %v after A's crash: %w", c.poll, err))
	}
	blocked := time.Since(crashed)
	_ = b.Release(ctx, leaseB)

	// The key expires no sooner than when A's last write was sent plus the TTL (less
	// Redis's millisecond): the bound is the TTL less that write's round trip, the
	// gap from its reply to the crash, and that millisecond.
	rtt, gap := replied.Sub(sent), crashed.Sub(replied)
	tolerance := rtt + gap + redisExpiryGranularity
	short := 0
	if blocked < v.ttl-tolerance {
		short = 1
	}
	t.Count(results.BlockedShort, short)
	t.Input("blocked_ms", lab.Millis(blocked))
	t.Input("last_write_rtt_ms", lab.Millis(rtt))
	t.Input("tolerance_ms", lab.Millis(tolerance))
	t.Input("extensions", float64(extensionsOf(t.Rec.History(), "A")))
	if after := timed.sentAfter(crashed); after > 0 {
		return lab.Failed("watchdog", fmt.Errorf("A's watchdog sent %d extensions after A crashed", after))
	}
	t.Prove("A crashed %v after its %s replied (round trip %v); its key was still held then (PTTL %v); B, polling every "+
		"%v, was granted %v after the crash (TTL %v, bound %v)",
		gap.Round(time.Microsecond), last, rtt.Round(time.Microsecond), state.TTL, c.poll,
		blocked.Round(100*time.Microsecond), v.ttl, (v.ttl - tolerance).Round(100*time.Microsecond))
	return nil
}
