// Package etcdlock is the consensus baseline: etcd's own lock recipe
// (client/v3/concurrency Session + Mutex) behind the locks.Locker interface, with the
// lock key's create revision as fencing token. It lives apart from package locks so
// that only programs that import it carry etcd's dependency tree.
//
// One Acquire is one lease and one TryLock:
//   - Grant a lease of the Acquire ttl rounded UP to whole seconds (etcd lease TTLs are
//     seconds; the server may raise it further to its minimum, about 1.5 election
//     timeouts: Lease.ValidUntil reports the TTL the server granted).
//   - Wrap it in a concurrency.Session, TryLock a concurrency.Mutex on key, then orphan
//     the session: its keep-alive would renew the lease for as long as this process
//     lives, whereas a Locker's lease must lapse after ttl unless Extended.
//   - Release revokes the lease, Extend sends one KeepAliveOnce.
package etcdlock

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
)

// Options configure the etcd client.
type Options struct {
	// DialTimeout bounds connecting to the cluster (default 5 s).
	DialTimeout time.Duration
	// Access is the etcd user and TLS of a cluster that asks for them (an external one).
	Access redisconn.Access
	// KeyPrefix, when set, is the run's own prefix on a cluster lockbench does not own:
	// the connection check reads under it, so that a user whose role allows only the
	// prefix passes it (the locks' keys are the caller's, already under it).
	KeyPrefix string
}

// pingKey is the key New reads to check the cluster answers: a linearizable read, so
// it needs a leader, and under prefix so that it needs no permission beyond the run's.
func pingKey(prefix string) string {
	if prefix == "" {
		prefix = "lockbench:"
	}
	return prefix + "ping"
}

// Locker takes locks on an etcd cluster.
type Locker struct {
	name   string
	client *clientv3.Client
}

// New connects to the cluster's client endpoints (host:port) and checks it answers.
func New(ctx context.Context, name string, endpoints []string, opts Options) (*Locker, error) {
	if len(endpoints) == 0 {
		return nil, errors.New("etcd endpoints: none given")
	}
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = 5 * time.Second
	}
	client, err := clientv3.New(clientv3.Config{
		Endpoints:   endpoints,
		DialTimeout: opts.DialTimeout,
		Username:    opts.Access.Username,
		Password:    opts.Access.Password,
		TLS:         opts.Access.TLS,
		// A member that stops answering (paused) keeps its connection open: without
		// keepalives the balancer goes on sending it requests that never return.
		// gRPC allows no less than 10 s between pings.
		DialKeepAliveTime:    10 * time.Second,
		DialKeepAliveTimeout: 2 * time.Second,
		Context:              context.Background(),
		// The client's warnings (retries, reconnects) would land in benchmark output.
		Logger: zap.NewNop(),
	})
	if err != nil {
		return nil, fmt.Errorf("%s: connect to %v: %w", name, endpoints, err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, opts.DialTimeout)
	defer cancel()
	ping := pingKey(opts.KeyPrefix)
	if _, err := client.Get(pingCtx, ping); err != nil {
		client.Close()
		return nil, fmt.Errorf("%s: connection check on cluster at %v (a read of %s): %w", name, endpoints, ping, err)
	}
	return &Locker{name: name, client: client}, nil
}

func (l *Locker) Strategy() string { return l.name }
func (l *Locker) Close() error     { return l.client.Close() }

// ttlSeconds rounds ttl up to whole seconds, the unit of etcd leases.
func ttlSeconds(ttl time.Duration) int64 {
	return int64((ttl + time.Second - 1) / time.Second)
}

// token is a lease ID as the lease's owner token: the Mutex key is key + "/" + token.
func token(id clientv3.LeaseID) string { return strconv.FormatInt(int64(id), 16) }

// leaseID parses a token; a token this package never issued owns nothing.
func leaseID(token string) (clientv3.LeaseID, bool) {
	id, err := strconv.ParseInt(token, 16, 64)
	if err != nil || id <= 0 {
		return 0, false
	}
	return clientv3.LeaseID(id), true
}

func (l *Locker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	if ttl <= 0 {
		return locks.Lease{}, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	start := time.Now()
	grant, err := l.client.Grant(ctx, ttlSeconds(ttl))
	if err != nil {
		return locks.Lease{}, fmt.Errorf("grant lease: %w", err)
	}
	session, err := concurrency.NewSession(l.client, concurrency.WithLease(grant.ID), concurrency.WithContext(ctx))
	if err != nil {
		l.revoke(ctx, grant.ID)
		return locks.Lease{}, fmt.Errorf("session: %w", err)
	}
	mutex := concurrency.NewMutex(session, key)
	err = mutex.TryLock(ctx)
	session.Orphan() // the lease must lapse after ttl, not live as long as this process
	if err != nil {
		// Revoking also deletes our waiter key if a failed reply hid a successful put.
		l.revoke(ctx, grant.ID)
		if errors.Is(err, concurrency.ErrLocked) {
			return locks.Lease{}, locks.ErrNotAcquired
		}
		if errors.Is(err, rpctypes.ErrLeaseNotFound) {
			// The attempt outlived its own lease before its put: it timed out, holding nothing.
			return locks.Lease{}, fmt.Errorf("lease %x lapsed before the lock was taken (%d s lease): %w",
				int64(grant.ID), grant.TTL, context.DeadlineExceeded)
		}
		return locks.Lease{}, err
	}
	return locks.Lease{
		Key:        key,
		Token:      token(grant.ID),
		Start:      start,
		ValidUntil: start.Add(time.Duration(grant.TTL) * time.Second),
		// The txn that created our key ran at this revision: the key's create revision,
		// which raft keeps increasing across leader changes.
		Fence:    mutex.Header().Revision,
		HasFence: true,
	}, nil
}

// cleanupTimeout bounds the revocation that cleans up after a failed attempt.
const cleanupTimeout = 2 * time.Second

// revoke gives a lease back, best effort (a lease that cannot be revoked lapses by
// itself). It must not use the attempt's context: an attempt cut short by its caller
// may still have locked the key on the server, and would leave it locked a whole lease.
func (l *Locker) revoke(ctx context.Context, id clientv3.LeaseID) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	_, _ = l.client.Revoke(ctx, id)
}

// Release revokes the lease. The lease carries exactly one key, the lock's own, so the
// revocation deletes the lock if and only if this lease still holds it; a lease that
// expired (and whose key another owner may now hold) answers "not found".
func (l *Locker) Release(ctx context.Context, lease locks.Lease) error {
	id, ok := leaseID(lease.Token)
	if !ok {
		return locks.ErrNotHeld
	}
	if _, err := l.client.Revoke(ctx, id); err != nil {
		if errors.Is(err, rpctypes.ErrLeaseNotFound) {
			return locks.ErrNotHeld
		}
		return err
	}
	return nil
}

// Extend renews the lease once. etcd renews a lease for the TTL it was granted with,
// whatever ttl asks: ValidUntil reports what the server granted.
func (l *Locker) Extend(ctx context.Context, lease locks.Lease, ttl time.Duration) (locks.Lease, error) {
	if ttl <= 0 {
		return lease, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	id, ok := leaseID(lease.Token)
	if !ok {
		return lease, locks.ErrNotHeld
	}
	start := time.Now()
	resp, err := l.client.KeepAliveOnce(ctx, id)
	if err != nil {
		if errors.Is(err, rpctypes.ErrLeaseNotFound) {
			return lease, locks.ErrNotHeld
		}
		return lease, err
	}
	lease.ValidUntil = start.Add(time.Duration(resp.TTL) * time.Second)
	return lease, nil
}
