package etcdlock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/etcd/client/v3/concurrency"

	"github.com/lockbench/lockbench/locks"
)

var _ locks.Waiter = (*Locker)(nil)

// Waiting is concurrency.Mutex.Lock's queue: every contender's key under the lock's
// prefix has a create revision, and each waits for the delete of the one just before.
func (l *Locker) Waiting() string {
	return "etcd concurrency.Mutex.Lock: revision queue, each waiter watches its predecessor"
}

// AcquireWaiting queues on key with the recipe's blocking Lock. The lease is the ttl
// rounded up to whole seconds, as for Acquire, and the session keeps it alive while
// the key waits in the queue (a wait may outlast ttl); once granted, the session is
// orphaned. Granted at once, the lease runs as Acquire's, from the start; granted after
// a wait, it is renewed once and runs a whole granted TTL from that renewal.
func (l *Locker) AcquireWaiting(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	if ttl <= 0 {
		return locks.Lease{}, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	start := time.Now()
	grant, err := l.client.Grant(ctx, ttlSeconds(ttl))
	if err != nil {
		return locks.Lease{}, waitError(ctx, fmt.Errorf("grant lease: %w", err), start)
	}
	session, err := concurrency.NewSession(l.client, concurrency.WithLease(grant.ID), concurrency.WithContext(ctx))
	if err != nil {
		l.revoke(ctx, grant.ID)
		return locks.Lease{}, waitError(ctx, fmt.Errorf("session: %w", err), start)
	}
	mutex := concurrency.NewMutex(session, key)
	err = mutex.Lock(ctx)
	session.Orphan() // from here the lease lapses unless Extended, as Acquire's does
	if err != nil {
		// Lock deletes its key when the wait fails; revoking covers a txn whose reply was lost.
		l.revoke(ctx, grant.ID)
		return locks.Lease{}, waitError(ctx, err, start)
	}
	owner := mutex.IsOwner() // compares our key's create revision, the one Lock recorded
	fence := owner.GetCompare().GetCreateRevision()
	validUntil := start.Add(time.Duration(grant.TTL) * time.Second)
	if mutex.Header().Revision != fence {
		// Granted after a wait (the header is a later read's): the keep-alive renewed
		// the lease at times we did not see, so renew it once more from now.
		renewed := time.Now()
		resp, err := l.client.KeepAliveOnce(ctx, grant.ID)
		if err != nil {
			l.revoke(ctx, grant.ID)
			return locks.Lease{}, waitError(ctx, fmt.Errorf("renew the granted lease: %w", err), start)
		}
		validUntil = renewed.Add(time.Duration(resp.TTL) * time.Second)
	}
	lease := locks.Lease{Key: key, Token: token(grant.ID), Start: start, ValidUntil: validUntil}
	lease.Fence, lease.HasFence = fence, true
	return lease, nil
}

// waitError says how long a wait lasted and why it ended: ctx's error first when ctx
// ended (the client reports a cut-off call in gRPC's words), and a session expiry (our
// queued key lapsed with its lease: keep-alives went unanswered) as a fault, not as
// contention.
func waitError(ctx context.Context, err error, start time.Time) error {
	waited := time.Since(start).Round(time.Millisecond)
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		return fmt.Errorf("waited %v: %w (%w)", waited, ctxErr, err)
	}
	if errors.Is(err, concurrency.ErrSessionExpired) {
		return fmt.Errorf("waited %v: the lease holding our place in the queue expired: %w", waited, err)
	}
	return fmt.Errorf("waited %v: %w", waited, err)
}
