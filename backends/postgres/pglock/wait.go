package pglock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lockbench/lockbench/locks"
)

var _ locks.Waiter = (*Locker)(nil)

// waiter is how a mechanism waits in the server's own lock queue.
type waiter interface {
	// wait blocks on conn until the lock is granted and returns the fence; its blocking
	// statement runs under l.blocking. Errors leave conn as grant's do.
	wait(ctx context.Context, l *Locker, conn *pgxpool.Conn, key string) (int64, error)
	waiting() string
}

func (l *Locker) Waiting() string { return l.mech.waiting() }

// AcquireWaiting blocks in the server's queue for the key on a connection of its own,
// which a granted lease keeps. The lock has no server TTL, so ttl maps as for Acquire:
// the locker gives the lock back itself at ValidUntil, ttl from the grant.
func (l *Locker) AcquireWaiting(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	if ttl <= 0 {
		return locks.Lease{}, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	start := time.Now()
	conn, fence, err := l.waitFor(ctx, key)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == undefinedTable {
		// The server lost its data (restarted without its disk): make the schema again.
		setupCtx, cancel := l.call(ctx)
		err = l.createSchema(setupCtx)
		cancel()
		if err == nil {
			conn, fence, err = l.waitFor(ctx, key)
		}
	}
	if err != nil {
		return locks.Lease{}, fmt.Errorf("%s: waited %v: %w", l.name, time.Since(start).Round(time.Millisecond), err)
	}
	token := locks.NewToken()
	validUntil := time.Now().Add(ttl)
	if _, ok := l.held.Hold(token, key, validUntil, &heldConn{conn: conn}, l.lapse); !ok {
		l.discard(conn)
		return locks.Lease{}, fmt.Errorf("%s: locker is closed", l.name)
	}
	return locks.Lease{Key: key, Token: token, Start: start, ValidUntil: validUntil, Fence: fence, HasFence: true}, nil
}

// waitFor waits for key on a connection of its own and returns it holding the lock. A
// wait cut off by ctx gives back what it may have taken: the statement may have been
// granted just before the server read the cancel request.
func (l *Locker) waitFor(ctx context.Context, key string) (*pgxpool.Conn, int64, error) {
	conn, err := l.pool.Acquire(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("connection: %w", err)
	}
	fence, err := l.mech.wait(ctx, l, conn, key)
	if err == nil && ctx.Err() == nil {
		return conn, fence, nil
	}
	if ctx.Err() == nil {
		l.discard(conn) // the session may hold the lock: only closing it is sure to free it
		return nil, 0, err
	}
	giveBackCtx, cancel := context.WithTimeout(context.Background(), l.timeout)
	defer cancel()
	gaveBack := l.mech.lapse(giveBackCtx, conn, key)
	if queryCanceled(err) && (gaveBack == nil || errors.Is(gaveBack, locks.ErrNotHeld)) {
		conn.Release() // the cancel request was spent on the wait: conn is clean
	} else {
		// A cancel request may still be on its way, to strike conn's next statement.
		l.discard(conn)
	}
	return nil, 0, fmt.Errorf("%w (%w)", ctx.Err(), err)
}

// queryCanceledCode is the SQLSTATE of a statement a cancel request stopped.
const queryCanceledCode = "57014"

func queryCanceled(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == queryCanceledCode
}

// blocking runs stmt, which waits in the server's lock queue, on conn. pgx answers a
// cancelled ctx by closing the socket, which a backend blocked on a lock does not read:
// it would stay queued and take the lock for no one. So stmt runs on a context ctx
// cannot cancel, and ctx's end sends the server a cancel request instead: stmt ends,
// cancelled (57014) or granted just before. A server that does not end it within the
// locker's timeout gets the socket closed.
func (l *Locker) blocking(ctx context.Context, conn *pgxpool.Conn, stmt func(context.Context) error) error {
	stmtCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	defer context.AfterFunc(ctx, func() {
		cancelCtx, cancel := context.WithTimeout(context.Background(), l.timeout)
		defer cancel()
		if conn.Conn().PgConn().CancelRequest(cancelCtx) == nil {
			select {
			case <-stmtCtx.Done(): // stmt returned
			case <-cancelCtx.Done():
			}
		}
		stop()
	})()
	return stmt(stmtCtx)
}

// advisoryWait takes the lock, blocking, then the fence: the subquery (kept apart by
// OFFSET 0) yields its row only once the lock is granted, and the statement commits the
// sequence's advance before it answers.
const advisoryWait = "SELECT nextval('lockbench_fence') FROM (SELECT pg_advisory_lock($1) OFFSET 0) AS locked"

func (advisory) wait(ctx context.Context, l *Locker, conn *pgxpool.Conn, key string) (int64, error) {
	var fence int64
	err := l.blocking(ctx, conn, func(ctx context.Context) error {
		return conn.QueryRow(ctx, advisoryWait, lockID(key)).Scan(&fence)
	})
	if err != nil {
		return 0, fmt.Errorf("%s: lock: %w", Advisory, err)
	}
	return fence, nil
}

func (advisory) waiting() string {
	return "PostgreSQL pg_advisory_lock: blocks in the server's lock queue"
}

// wait is grant with the row lock's queue instead of NOWAIT.
func (f forUpdate) wait(ctx context.Context, l *Locker, conn *pgxpool.Conn, key string) (int64, error) {
	return f.take(ctx, l, conn, key, func(ctx context.Context) error {
		return l.blocking(ctx, conn, func(ctx context.Context) error { return f.lockRow(ctx, conn, key, lockWaiting) })
	})
}

func (forUpdate) waiting() string {
	return "PostgreSQL SELECT ... FOR UPDATE: blocks in the row lock's queue"
}
