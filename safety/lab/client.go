package lab

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/lockbench/lockbench/internal/pausegate"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/topologies"
)

// ErrCrashed is what a crashed client's next step returns.
var ErrCrashed = errors.New("client crashed")

// Client is one lock user: a locker plus the recording of every step it takes. Its
// pause gate stands for the process stopping (a GC pause, a VM freeze): the client's
// goroutine and its watchdog both stop at their next checkpoint until the gate opens.
type Client struct {
	ID     string
	Locker locks.Locker
	rec    *history.Recorder

	gate    pausegate.Gate // shut while paused
	crashed atomic.Bool
}

// NewClient returns a running client that records into rec.
func NewClient(id string, l locks.Locker, rec *history.Recorder) *Client {
	return &Client{ID: id, Locker: l, rec: rec}
}

// String is the client's ID, for the nemesis' notes.
func (c *Client) String() string { return c.ID }

// Pause stops the client at its next checkpoint until Resume.
func (c *Client) Pause() { c.gate.Pause() }

// Resume lets a paused client go on.
func (c *Client) Resume() { c.gate.Resume() }

// Crash kills the client: every later step returns ErrCrashed.
func (c *Client) Crash() {
	if !c.crashed.Swap(true) {
		c.rec.Record(history.Event{Client: c.ID, Kind: history.Crashed})
	}
}

// Checkpoint is where a paused client stops and a crashed one gives up.
func (c *Client) Checkpoint(ctx context.Context) error {
	if err := c.gate.Wait(ctx); err != nil {
		return err
	}
	if c.crashed.Load() {
		return ErrCrashed
	}
	return nil
}

// Acquire makes one recorded attempt.
func (c *Client) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	if err := c.Checkpoint(ctx); err != nil {
		return locks.Lease{}, err
	}
	c.rec.Record(history.Event{Client: c.ID, Kind: history.AcquireInvoked, Key: key})
	lease, err := c.Locker.Acquire(ctx, key, ttl)
	if err != nil {
		c.rec.Record(history.Event{Client: c.ID, Kind: history.AcquireRefused, Key: key, Detail: err.Error()})
		return lease, err
	}
	c.rec.Record(history.Event{Client: c.ID, Kind: history.AcquireGranted, Key: key, Token: lease.Token,
		Fence: lease.Fence, HasFence: lease.HasFence, ValidUntil: lease.ValidUntil})
	return lease, nil
}

// AcquireUntil retries one attempt every interval until granted, refused by something
// other than contention, or ctx ends.
func (c *Client) AcquireUntil(ctx context.Context, key string, ttl, interval time.Duration) (locks.Lease, error) {
	for {
		lease, err := c.Acquire(ctx, key, ttl)
		if err == nil || !errors.Is(err, locks.ErrNotAcquired) {
			return lease, err
		}
		select {
		case <-ctx.Done():
			return lease, ctx.Err()
		case <-time.After(interval):
		}
	}
}

// Release gives the lease back, recorded.
func (c *Client) Release(ctx context.Context, lease locks.Lease) error {
	if err := c.Checkpoint(ctx); err != nil {
		return err
	}
	c.rec.Record(history.Event{Client: c.ID, Kind: history.ReleaseInvoked, Key: lease.Key, Token: lease.Token})
	err := c.Locker.Release(ctx, lease)
	e := history.Event{Client: c.ID, Kind: history.Released, Key: lease.Key, Token: lease.Token, OK: err == nil}
	if err != nil {
		e.Detail = err.Error()
	}
	c.rec.Record(e)
	return err
}

// Extend pushes the lease's expiry, recorded.
func (c *Client) Extend(ctx context.Context, lease locks.Lease, ttl time.Duration) (locks.Lease, error) {
	if err := c.Checkpoint(ctx); err != nil {
		return lease, err
	}
	next, err := c.Locker.Extend(ctx, lease, ttl)
	e := history.Event{Client: c.ID, Kind: history.Extended, Key: lease.Key, Token: lease.Token, OK: err == nil}
	if err == nil {
		e.ValidUntil = next.ValidUntil
	} else {
		e.Detail = err.Error()
	}
	c.rec.Record(e)
	return next, err
}

// Enter, Write and Leave act on a resource under lease, each after a checkpoint (a
// paused client stops before it touches the resource, not in the middle of a write).
func (c *Client) Enter(ctx context.Context, r *Resource, lease locks.Lease) error {
	if err := c.Checkpoint(ctx); err != nil {
		return err
	}
	r.Enter(c.ID, lease.Key, lease.Token)
	return nil
}

func (c *Client) Write(ctx context.Context, r *Resource, lease locks.Lease) (bool, error) {
	if err := c.Checkpoint(ctx); err != nil {
		return false, err
	}
	return r.Write(c.ID, lease.Key, lease.Token, lease.Fence, lease.HasFence), nil
}

// Leave is recorded even for a crashed client: a dead process leaves everything.
func (c *Client) Leave(r *Resource, lease locks.Lease) { r.Leave(c.ID, lease.Key) }

// Work is what a holder does with the resource: it enters r under lease, writes once,
// stays inside for as long as stay takes (nil: not at all), and leaves.
func (c *Client) Work(ctx context.Context, r *Resource, lease locks.Lease, stay func()) {
	_ = c.Enter(ctx, r, lease)
	_, _ = c.Write(ctx, r, lease)
	if stay != nil {
		stay()
	}
	c.Leave(r, lease)
}

// Until returns once done is closed or ctx ends: a holder staying inside until the
// other client has done its part.
func Until(ctx context.Context, done <-chan struct{}) {
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// NoticeBound is how long a scenario gives a library to tell its holder that the lock is
// gone before the next client tries: an invalidation takes milliseconds, rueidislock's
// next push without one 2.5 s.
const NoticeBound = 500 * time.Millisecond

// Within waits up to bound for done to close and says whether it did: a library
// telling its holder, given a fair chance before the next step.
func Within(ctx context.Context, done <-chan struct{}, bound time.Duration) bool {
	timer := time.NewTimer(bound)
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-timer.C:
	case <-ctx.Done():
	}
	return false
}

// Watchdog extends the lease to ttl every ttl/3, as Redisson's does, until stop is
// called or an extension fails. It runs in the client's process, so it pauses with it.
func (c *Client) Watchdog(ctx context.Context, lease locks.Lease, ttl time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(ttl / 3)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			next, err := c.Extend(ctx, lease, ttl)
			if err != nil {
				return
			}
			lease = next
		}
	}()
	return func() { cancel(); <-done }
}

// StoreClients makes one recorded client per id over st's topology, each with a
// locker of its own (fenced: leases carry a fence); closeAll closes every locker. A
// locker that cannot be made is the trial's setup error.
func StoreClients(ctx context.Context, st Store, topo topologies.Topology, fenced bool, rec *history.Recorder,
	ids ...string) (clients []*Client, closeAll func(), err error) {
	closeAll = func() {
		for _, c := range clients {
			c.Locker.Close()
		}
	}
	for _, id := range ids {
		l, err := st.Locker(ctx, topo, fenced)
		if err != nil {
			closeAll()
			return nil, func() {}, Failed("setup", fmt.Errorf("client %s: %w", id, err))
		}
		clients = append(clients, NewClient(id, l, rec))
	}
	return clients, closeAll, nil
}

// SingleClient is a recorded client of a plain Redis lock on the node at addr; closing
// its Locker is the caller's. A lock that cannot be made is the trial's setup error.
func SingleClient(ctx context.Context, id, addr string, rec *history.Recorder) (*Client, error) {
	l, err := locks.AtAddrs(ctx, "single", []string{addr}, locks.Options{})
	if err != nil {
		return nil, Failed("setup", err)
	}
	return NewClient(id, l, rec), nil
}

// WarmUp takes and releases key once on l, so that a cluster client has learnt the slot
// map and dialled the key's master before a fault: a cold client would find them out
// during it. A failure is the trial's setup error.
func WarmUp(ctx context.Context, l locks.Locker, key string) error {
	lease, err := l.Acquire(ctx, key, time.Minute)
	if err != nil {
		return Failed("setup", err)
	}
	if err := l.Release(ctx, lease); err != nil {
		return Failed("setup", err)
	}
	return nil
}
