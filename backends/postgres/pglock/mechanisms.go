package pglock

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lockbench/lockbench/locks"
)

// advisory is pg-advisory: a session-level advisory lock per key.
type advisory struct{}

// grant takes the lock and, only if it got it, the fence, in one statement that
// commits (and so makes the sequence advance durable) before it answers.
func (advisory) grant(ctx context.Context, _ *Locker, conn *pgxpool.Conn, key string) (int64, error) {
	var fence *int64
	err := conn.QueryRow(ctx, "SELECT CASE WHEN pg_try_advisory_lock($1) THEN nextval('lockbench_fence') END",
		lockID(key)).Scan(&fence)
	if err != nil {
		return 0, fmt.Errorf("%s: try lock: %w", Advisory, err)
	}
	if fence == nil {
		return 0, locks.ErrNotAcquired
	}
	return *fence, nil
}

func (advisory) release(ctx context.Context, conn *pgxpool.Conn, key string) error {
	var unlocked bool
	if err := conn.QueryRow(ctx, "SELECT pg_advisory_unlock($1)", lockID(key)).Scan(&unlocked); err != nil {
		return fmt.Errorf("%s: unlock: %w", Advisory, err)
	}
	if !unlocked {
		return locks.ErrNotHeld
	}
	return nil
}

func (a advisory) lapse(ctx context.Context, conn *pgxpool.Conn, key string) error {
	return a.release(ctx, conn, key)
}

// alive: the session is the lock, and only Release or lapse unlocks it.
func (advisory) alive(ctx context.Context, conn *pgxpool.Conn) error {
	return conn.Ping(ctx)
}

// forUpdate is pg-for-update: a transaction holding the key's row FOR UPDATE.
type forUpdate struct{}

// lockNotAvailable is the SQLSTATE of a NOWAIT lock that another transaction holds.
const lockNotAvailable = "55P03"

// grant begins the transaction and locks the row in one round trip, NOWAIT.
func (f forUpdate) grant(ctx context.Context, l *Locker, conn *pgxpool.Conn, key string) (int64, error) {
	return f.take(ctx, l, conn, key, func(ctx context.Context) error { return f.lockRow(ctx, conn, key, lockNoWait) })
}

// take runs lockRow; a missing row is inserted (committed on its own, so that inserting
// never waits on another holder) and lockRow run once more. The fence comes from
// another connection: see the package comment.
func (f forUpdate) take(
	ctx context.Context, l *Locker, conn *pgxpool.Conn, key string, lockRow func(context.Context) error,
) (int64, error) {
	for attempt := 0; ; attempt++ {
		err := lockRow(ctx)
		if errors.Is(err, pgx.ErrNoRows) && attempt == 0 {
			if err := rollback(ctx, conn); err != nil {
				return 0, err
			}
			if _,
				err := conn.Exec(ctx, "INSERT INTO lockbench_locks (key) VALUES ($1) ON CONFLICT DO NOTHING", key); err != nil {
				return 0, fmt.Errorf("%s: insert the key's row: %w", ForUpdate, err)
			}
			continue
		}
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == lockNotAvailable {
			if err := rollback(ctx, conn); err != nil {
				return 0, err
			}
			return 0, locks.ErrNotAcquired
		}
		if err != nil {
			return 0, fmt.Errorf("%s: lock the key's row: %w", ForUpdate, err)
		}
		break
	}
	var fence int64
	if err := l.pool.QueryRow(ctx, "SELECT nextval('lockbench_fence')").Scan(&fence); err != nil {
		return 0, fmt.Errorf("%s: fence: %w", ForUpdate, err)
	}
	return fence, nil
}

// The locking SELECTs: one attempt, and a wait in the row's queue.
const (
	lockNoWait  = "SELECT true FROM lockbench_locks WHERE key = $1 FOR UPDATE NOWAIT"
	lockWaiting = "SELECT true FROM lockbench_locks WHERE key = $1 FOR UPDATE"
)

// lockRow sends BEGIN and the locking SELECT together.
func (forUpdate) lockRow(ctx context.Context, conn *pgxpool.Conn, key, lockSQL string) error {
	batch := &pgx.Batch{}
	batch.Queue("BEGIN")
	batch.Queue(lockSQL, key)
	results := conn.SendBatch(ctx, batch)
	_, errBegin := results.Exec()
	var locked bool
	errLock := results.QueryRow().Scan(&locked)
	errClose := results.Close()
	// A failed BEGIN fails the SELECT too, and Close repeats the first error: report it once.
	for _, err := range []error{errBegin, errLock, errClose} {
		if err != nil {
			return err
		}
	}
	return nil
}

func rollback(ctx context.Context, conn *pgxpool.Conn) error {
	if _, err := conn.Exec(ctx, "ROLLBACK"); err != nil {
		return fmt.Errorf("%s: rollback: %w", ForUpdate, err)
	}
	return nil
}

// release commits; a transaction the server had aborted answers ROLLBACK instead.
func (forUpdate) release(ctx context.Context, conn *pgxpool.Conn, _ string) error {
	tag, err := conn.Exec(ctx, "COMMIT")
	if err != nil {
		return fmt.Errorf("%s: commit: %w", ForUpdate, err)
	}
	if tag.String() != "COMMIT" {
		return locks.ErrNotHeld
	}
	return nil
}

func (forUpdate) lapse(ctx context.Context, conn *pgxpool.Conn, _ string) error {
	return rollback(ctx, conn)
}

// alive: the row stays locked while the transaction is open and not failed.
func (forUpdate) alive(ctx context.Context, conn *pgxpool.Conn) error {
	if err := conn.Ping(ctx); err != nil {
		return err
	}
	if status := conn.Conn().PgConn().TxStatus(); status != 'T' {
		return fmt.Errorf("transaction status %q, not open", status)
	}
	return nil
}
