package pglock

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lockbench/lockbench/locks"
)

// LockID and LockWaiting are lockID and lockWaiting for the tests, which find the
// backends queued on a key's lock.
var LockID = lockID

const LockWaiting = lockWaiting

// AfterGrant makes l's waits call after once granted, before AcquireWaiting looks at
// its ctx: a test's way to end ctx exactly between a grant and its return.
func AfterGrant(l locks.Locker, after func()) {
	pl := l.(*Locker)
	pl.mech = afterGrant{mechanism: pl.mech, after: after}
}

type afterGrant struct {
	mechanism
	after func()
}

func (a afterGrant) wait(ctx context.Context, l *Locker, conn *pgxpool.Conn, key string) (int64, error) {
	fence, err := a.mechanism.wait(ctx, l, conn, key)
	if err == nil {
		a.after()
	}
	return fence, err
}
