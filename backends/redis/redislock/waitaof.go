package redislock

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
)

// FsyncDemand is what a WAITAOF grant waits for: the master's own fsync of the
// append-only file (Local 1) and how many replicas' fsyncs (Replicas).
type FsyncDemand struct {
	Local    int
	Replicas int
	// Timeout is WAITAOF's own bound (default DefaultFsyncTimeout); zero would block forever.
	Timeout time.Duration
}

// DefaultFsyncTimeout bounds WAITAOF past `appendfsync everysec`'s once-a-second fsync,
// so that a grant is refused for a missing fsync, not for the period's phase.
const DefaultFsyncTimeout = 2 * time.Second

// FsyncAck is WAITAOF's reply: how many local fsyncs (0 or 1) and replica fsyncs
// covered the SET when it returned.
type FsyncAck struct {
	Local    int64
	Replicas int64
}

// ErrNoWaitAOF says the server does not know WAITAOF (Redis before 7.2: redis-server
// 7.0.15 here); Valkey 7.2+ and Redis 7.2+ do.
var ErrNoWaitAOF = errors.New("the server has no WAITAOF command (it needs Redis 7.2+ or Valkey 7.2+: run with " +
	"--server valkey)")

func (d FsyncDemand) withDefaults() FsyncDemand {
	if d.Timeout <= 0 {
		d.Timeout = DefaultFsyncTimeout
	}
	return d
}

func (d FsyncDemand) String() string {
	return fmt.Sprintf("WAITAOF %d %d %d", d.Local, d.Replicas, d.Timeout.Milliseconds())
}

// met is nil when ack covers d, ErrNotReplicated otherwise (a missing fsync, local or
// a replica's, is a grant no crash-restart would keep).
func (d FsyncDemand) met(ack FsyncAck) error {
	if ack.Local < int64(d.Local) || ack.Replicas < int64(d.Replicas) {
		return fmt.Errorf("%w: %s answered %d local and %d replica fsyncs", locks.ErrNotReplicated, d, ack.Local,
			ack.Replicas)
	}
	return nil
}

// waitAOFLocker is single plus WAITAOF after the SET: the grant counts only once the
// append-only files the demand names hold the key on disk.
type waitAOFLocker struct {
	*setNX
	master *redis.Client // setNX's client as itself: WAITAOF needs a connection of its own (Conn)
	demand FsyncDemand
}

// NewWaitAOF locks on the master at addr under name, each grant waiting for demand's
// fsyncs. It fails at once, naming WAITAOF, on a server without the command, and on a
// master without an append-only file when demand.Local > 0.
func NewWaitAOF(ctx context.Context, addr, name string, demand FsyncDemand,
	opts redisconn.Options) (locks.Locker, error) {
	master := redisconn.NewClient(addr, name, opts)
	core, err := newSetNX(ctx, name, master, opts.CommandTimeout())
	if err != nil {
		return nil, err
	}
	demand = demand.withDefaults()
	// A fresh connection has written nothing, so this returns at once where it works.
	if err := core.client.Do(ctx, "WAITAOF", demand.Local, 0, 1).Err(); err != nil {
		core.Close()
		return nil, fmt.Errorf("%s at %s: %w", name, addr, explainWaitAOF(err))
	}
	return &waitAOFLocker{setNX: core, master: master, demand: demand}, nil
}

func (w *waitAOFLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	lease, _, err := AcquireFsynced(ctx, w.master, key, ttl, w.demand, w.giveBack)
	return lease, err
}

// AcquireFsynced is a WAITAOF strategy's attempt on one master's client: SET NX, then
// WAITAOF on the same connection (it counts that connection's writes), the lock given
// back (by giveBack) unless demand's fsyncs covered it. It returns WAITAOF's reply
// whenever the server gave one.
func AcquireFsynced(ctx context.Context, client *redis.Client, key string, ttl time.Duration, demand FsyncDemand,
	giveBack func(context.Context, locks.Lease)) (locks.Lease, FsyncAck, error) {
	demand = demand.withDefaults()
	if ttl <= 0 {
		return locks.Lease{}, FsyncAck{}, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	conn := client.Conn()
	defer conn.Close()
	lease := locks.Lease{Key: key, Token: locks.NewToken(), Start: time.Now()}
	ok, err := conn.SetNX(ctx, key, lease.Token, ttl).Result()
	if err != nil {
		if ctx.Err() != nil {
			giveBack(ctx, lease) // cut off: the SET may have landed
		}
		return locks.Lease{}, FsyncAck{}, err
	}
	if !ok {
		return locks.Lease{}, FsyncAck{}, locks.ErrNotAcquired
	}
	// A second round trip, not WAIT's pipeline: pipelined behind the SET under everysec,
	// Valkey 8.0.1 answered WAITAOF 1 0 only at a later server tick (about 100 ms), sent
	// after the SET's reply mostly within a millisecond (docs/valkey.md).
	ack, err := fsyncAckOf(conn.Do(ctx, "WAITAOF", demand.Local, demand.Replicas, demand.Timeout.Milliseconds()))
	if err != nil {
		giveBack(ctx, lease)
		return locks.Lease{}, FsyncAck{}, fmt.Errorf("%s after the SET: %w", demand, explainWaitAOF(err))
	}
	if err := demand.met(ack); err != nil {
		// The key may be in memory only: a host crash would forget it, so give it back.
		giveBack(ctx, lease)
		return locks.Lease{}, ack, err
	}
	lease.ValidUntil = lease.Start.Add(ttl)
	return lease, ack, nil
}

// fsyncAckOf reads WAITAOF's two-integer reply.
func fsyncAckOf(wait *redis.Cmd) (FsyncAck, error) {
	counts, err := wait.Int64Slice()
	if err != nil {
		return FsyncAck{}, err
	}
	if len(counts) != 2 {
		return FsyncAck{}, fmt.Errorf("WAITAOF answered %d numbers, want 2", len(counts))
	}
	return FsyncAck{Local: counts[0], Replicas: counts[1]}, nil
}

// explainWaitAOF names the missing command where the server refused it as unknown.
func explainWaitAOF(err error) error {
	if strings.Contains(strings.ToLower(err.Error()), "unknown command") {
		return fmt.Errorf("%w: %v", ErrNoWaitAOF, err)
	}
	return err
}
