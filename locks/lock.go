// Package locks is one small interface over the ways of taking a lock, one file per
// strategy. Acquire makes exactly one attempt: retrying is the caller's policy, so the
// cost of an attempt and the time to finally get the lock are measured apart.
package locks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"
)

// Lease is a granted lock as its holder sees it.
type Lease struct {
	Key   string
	Token string // the owner's unique value; only this token may release or extend
	// Start is when the granting attempt began; ValidUntil is the holder's belief of
	// when the lock stops being its own (the server may disagree: that is the point).
	Start      time.Time
	ValidUntil time.Time
	// Fence is a fencing token for strategies that issue one (HasFence).
	Fence    int64
	HasFence bool
}

var (
	// ErrNotAcquired: another owner holds the key (contention, not a fault).
	ErrNotAcquired = errors.New("lock is held by another owner")
	// ErrNotHeld: the lease's token does not own the key (expired, or not ours).
	ErrNotHeld = errors.New("lease is not held: the key is gone or owned by another token")
	// ErrNotReplicated: the lock was set but too few replicas acknowledged it in time,
	// so it was released again.
	ErrNotReplicated = errors.New("lock was not acknowledged by enough replicas")
)

// Locker takes, gives back and extends locks with one strategy.
type Locker interface {
	// Strategy is the name the CLI and benchmarks use for this locker.
	Strategy() string
	// Acquire makes one attempt to lock key for ttl. An attempt that fails because ctx
	// ended gives back whatever it may have taken (a SET can land after the caller
	// stopped waiting): a lock left behind would block the key's next user a whole TTL.
	Acquire(ctx context.Context, key string, ttl time.Duration) (Lease, error)
	// Release frees the lease's key if and only if its token still owns it.
	Release(ctx context.Context, lease Lease) error
	// Extend pushes the lease's expiry to ttl from now if its token still owns it.
	Extend(ctx context.Context, lease Lease, ttl time.Duration) (Lease, error)
	Close() error
}

// NewToken returns a random owner token, unique across clients and processes.
func NewToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on Linux since Go 1.24
	return hex.EncodeToString(b[:])
}
