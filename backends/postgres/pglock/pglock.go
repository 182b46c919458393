// Package pglock takes locks in PostgreSQL, behind the locks.Locker interface:
//
//   - pg-advisory: pg_try_advisory_lock on a session. An advisory lock belongs to the
//     session that took it, so every held lease keeps a connection of its own, taken from
//     the locker's pool at grant and given back at Release (after pg_advisory_unlock).
//   - pg-for-update: a transaction that holds SELECT ... FOR UPDATE NOWAIT on the key's
//     row of lockbench_locks (inserted on first use) for the critical section, on the
//     lease's own connection; Release commits it. A held row answers SQLSTATE 55P03
//     (lock_not_available), which is locks.ErrNotAcquired.
//
// Neither lock has a TTL on the server: it lasts as long as its session (advisory) or
// transaction (for-update). A lease's ValidUntil is the client's belief only: the locker
// gives the lock back itself when ValidUntil passes (a timer in this process, so a
// paused holder keeps its lock, and a dead holder loses it when its connection closes),
// and Extend, after a round trip that proves the session alive, renews that belief.
//
// AcquireWaiting blocks in the server's own queue instead (pg_advisory_lock, FOR UPDATE
// without NOWAIT), a cut-off wait cancelled by a cancel request: see wait.go.
//
// Fence: nextval of the lockbench_fence sequence, taken once the lock is held and in a
// statement that commits before the value reaches the client: a sequence never hands
// out a committed value twice, across crashes and restarts of the one server. (A value
// taken inside the held transaction would not do: PostgreSQL makes a sequence advance
// durable only when its transaction commits, so a crash could reissue it.) It lives
// apart from package locks so that only programs that import it carry the driver.
package pglock

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/heldlease"
	"github.com/lockbench/lockbench/locks/pooloptions"
)

// Strategy names.
const (
	Advisory  = "pg-advisory"
	ForUpdate = "pg-for-update"
)

const (
	// defaultPoolSize is the number of lock connections: one per client that holds or
	// tries a lock at a time. Fewer would measure the pool's queue, not the lock; a
	// locker holding PoolSize leases at once has none left to try another with.
	defaultPoolSize = 8
	defaultTimeout  = 2 * time.Second
)

// mechanism is what differs between the strategies; the locker does the rest.
type mechanism interface {
	// grant makes one attempt on conn and returns the fence, or ErrNotAcquired after
	// leaving conn clean. Any other error leaves conn in an unknown state.
	grant(ctx context.Context, l *Locker, conn *pgxpool.Conn, key string) (int64, error)
	// release gives the lock back on conn; ErrNotHeld if the server held none.
	release(ctx context.Context, conn *pgxpool.Conn, key string) error
	// lapse gives the lock back when the client's TTL has passed.
	lapse(ctx context.Context, conn *pgxpool.Conn, key string) error
	// alive proves, in one round trip, that conn still holds its lock.
	alive(ctx context.Context, conn *pgxpool.Conn) error
	waiter // AcquireWaiting's wait in the server's queue (wait.go)
}

// Locker takes locks in one PostgreSQL database.
type Locker struct {
	name    string
	pool    *pgxpool.Pool
	timeout time.Duration
	mech    mechanism
	// connsPerClient is how many connections one client's attempt and lease use at once.
	connsPerClient int

	held heldlease.Table[*heldConn]
}

// heldConn is a granted lock's connection: its session or transaction holds the lock.
type heldConn struct {
	conn *pgxpool.Conn
	mu   sync.Mutex // one statement at a time on conn
}

// NewAdvisory connects a pg-advisory locker to dsn.
func NewAdvisory(ctx context.Context, dsn string, opts pooloptions.Options) (*Locker, error) {
	return newLocker(ctx, Advisory, dsn, opts, advisory{}, 1)
}

// NewForUpdate connects a pg-for-update locker to dsn.
func NewForUpdate(ctx context.Context, dsn string, opts pooloptions.Options) (*Locker, error) {
	// Every holder takes its fence on a second connection while its own holds the row.
	return newLocker(ctx, ForUpdate, dsn, opts, forUpdate{}, 2)
}

func newLocker(ctx context.Context, name, dsn string, opts pooloptions.Options, mech mechanism,
	connsPerClient int) (*Locker, error) {
	opts, err := opts.WithDefaults(name, defaultPoolSize, defaultTimeout)
	if err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("%s: dsn: %w", name, err)
	}
	cfg.MaxConns = int32(opts.PoolSize * connsPerClient)
	cfg.ConnConfig.ConnectTimeout = opts.Timeout
	if opts.Dialer != nil {
		cfg.ConnConfig.DialFunc = opts.Dialer
	}
	cfg.ConnConfig.RuntimeParams["application_name"] = "lockbench " + name
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	l := &Locker{name: name, pool: pool, timeout: opts.Timeout, mech: mech, connsPerClient: connsPerClient}
	setupCtx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	if err := l.createSchema(setupCtx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("%s: server at %s does not answer: %w", name, cfg.ConnConfig.Host, err)
	}
	return l, nil
}

// createSchema makes the fence sequence and the lock rows' table. CREATE ... IF NOT
// EXISTS races with itself (a duplicate catalog key): a transaction-scoped advisory lock
// (the two-int form, a key space apart from the strategy's one-bigint locks) lets one
// locker at a time run it.
func (l *Locker) createSchema(ctx context.Context) error {
	return pgx.BeginFunc(ctx, l.pool, func(tx pgx.Tx) error {
		for _, stmt := range []string{
			"SELECT pg_advisory_xact_lock(1819239275, 1)",
			"CREATE SEQUENCE IF NOT EXISTS lockbench_fence",
			"CREATE TABLE IF NOT EXISTS lockbench_locks (key text PRIMARY KEY)",
		} {
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return err
			}
		}
		return nil
	})
}

func (l *Locker) Strategy() string { return l.name }

// call bounds one operation by the locker's timeout.
func (l *Locker) call(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, l.timeout)
}

// Acquire makes one attempt on a connection of its own, which a granted lease keeps.
func (l *Locker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	if ttl <= 0 {
		return locks.Lease{}, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	start := time.Now()
	ctx, cancel := l.call(ctx)
	defer cancel()
	conn, fence, err := l.attempt(ctx, key)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == undefinedTable {
		// The server lost its data (restarted without its disk): make the schema again.
		if err = l.createSchema(ctx); err == nil {
			conn, fence, err = l.attempt(ctx, key)
		}
	}
	if err != nil {
		return locks.Lease{}, err
	}
	token := locks.NewToken()
	validUntil := start.Add(ttl)
	if _, ok := l.held.Hold(token, key, validUntil, &heldConn{conn: conn}, l.lapse); !ok {
		l.discard(conn)
		return locks.Lease{}, fmt.Errorf("%s: locker is closed", l.name)
	}
	return locks.Lease{Key: key, Token: token, Start: start, ValidUntil: validUntil, Fence: fence, HasFence: true}, nil
}

// undefinedTable is the SQLSTATE of a missing table or sequence.
const undefinedTable = "42P01"

// attempt makes one attempt on a connection of its own and returns it holding the lock;
// on failure the connection is back in the pool, or closed if it might hold the lock.
func (l *Locker) attempt(ctx context.Context, key string) (*pgxpool.Conn, int64, error) {
	conn, err := l.pool.Acquire(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: connection: %w", l.name, err)
	}
	fence, err := l.mech.grant(ctx, l, conn, key)
	if errors.Is(err, locks.ErrNotAcquired) {
		conn.Release()
		return nil, 0, err
	}
	if err != nil {
		// The attempt may have taken the lock before it failed: only closing the
		// session is sure to give it back.
		l.discard(conn)
		return nil, 0, err
	}
	return conn, fence, nil
}

// Release gives the lock back and its connection to the pool.
func (l *Locker) Release(ctx context.Context, lease locks.Lease) error {
	h := l.held.Take(lease.Token, lease.Key)
	if h == nil {
		return locks.ErrNotHeld
	}
	ctx, cancel := l.call(ctx)
	defer cancel()
	c := h.Value
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := l.mech.release(ctx, c.conn, h.Key); err != nil {
		l.discard(c.conn) // closing the session frees whatever it still holds
		return err
	}
	c.conn.Release()
	return nil
}

// Extend checks in one round trip that the lease's session still holds the lock, then
// moves the client's deadline to ttl from now. The server has no deadline to move.
func (l *Locker) Extend(ctx context.Context, lease locks.Lease, ttl time.Duration) (locks.Lease, error) {
	if ttl <= 0 {
		return lease, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	h := l.held.Get(lease.Token, lease.Key)
	if h == nil {
		return lease, locks.ErrNotHeld
	}
	start := time.Now()
	ctx, cancel := l.call(ctx)
	defer cancel()
	c := h.Value
	c.mu.Lock()
	err := l.mech.alive(ctx, c.conn)
	c.mu.Unlock()
	if err != nil {
		// An unanswered session cannot be trusted to hold the lock: drop it, which
		// frees the lock on the server once it reads the close.
		if l.held.Take(lease.Token, lease.Key) == h {
			c.mu.Lock()
			l.discard(c.conn)
			c.mu.Unlock()
		}
		return lease, fmt.Errorf("%w: session lost: %v", locks.ErrNotHeld, err)
	}
	validUntil := start.Add(ttl)
	if !l.held.Renew(h, validUntil) {
		return lease, locks.ErrNotHeld // lapsed or released meanwhile
	}
	lease.ValidUntil = validUntil
	return lease, nil
}

// lapse gives back a lease whose client-side TTL has passed.
func (l *Locker) lapse(h *heldlease.Lease[*heldConn]) {
	if !l.held.Expire(h, nil) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), l.timeout)
	defer cancel()
	c := h.Value
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := l.mech.lapse(ctx, c.conn, h.Key); err != nil {
		l.discard(c.conn)
		return
	}
	c.conn.Release()
}

// discard closes conn instead of returning it: its session may still hold a lock.
func (l *Locker) discard(conn *pgxpool.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), l.timeout)
	defer cancel()
	_ = conn.Conn().Close(ctx)
	conn.Release() // the pool drops a closed connection
}

// Close drops every held lease (closing its session frees its lock) and the pool.
func (l *Locker) Close() error {
	for _, h := range l.held.Close() {
		c := h.Value
		c.mu.Lock()
		l.discard(c.conn)
		c.mu.Unlock()
	}
	l.pool.Close()
	return nil
}

// lockID maps a key to the one-bigint advisory lock space (FNV-1a, 64 bits).
func lockID(key string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(key))
	return int64(h.Sum64())
}
