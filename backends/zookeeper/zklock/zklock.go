// Package zklock takes locks in Apache ZooKeeper with its own lock recipe, behind the
// locks.Locker interface, with the lock node's czxid as fencing token. It lives apart
// from package locks so that only programs that import it carry the ZooKeeper client.
//
// One Acquire is one attempt on a session of its own:
//   - The session's timeout is the Acquire ttl. The server clamps it between its
//     minimum (2 ticks) and maximum: a ttl below the minimum is refused, naming both;
//     one above the maximum is granted as the maximum, and Lease.ValidUntil reports what
//     the server granted.
//   - Create an ephemeral sequential node under the key's lock dir; the lowest node
//     holds the lock. A node that is not the lowest is deleted again: ErrNotAcquired.
//   - A granted lease keeps its session until Release deletes the node; then (or after a
//     refusal) the session goes back to the locker's pool for the next attempt with the
//     same ttl. go-zookeeper heartbeats a session by itself, so the lease lapses in this
//     process at ValidUntil unless Extended (the node is deleted); a holder that stops
//     altogether (a paused or dead process, a cut network) loses it when the server
//     expires the session, which is never before ValidUntil.
//   - Extend proves the session alive and still owning the node (sync, then exists),
//     and moves ValidUntil to a session timeout from the proof's start.
//   - A holder whose session expired, or whose lease lapsed, learns it: Release and
//     Extend answer ErrNotHeld, saying which. A dropped connection is waited out (the
//     session may live on through another server) before either concludes.
//   - AcquireWaiting queues with go-zookeeper's own recipe (zk.Lock) on such a session
//     instead of withdrawing its node: see wait.go.
package zklock

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/heldlease"
	"github.com/lockbench/lockbench/locks/pooloptions"
)

const (
	// defaultPoolSize is how many idle sessions the locker keeps for later attempts: one
	// per client, or every attempt pays for a new session.
	defaultPoolSize = 8
	// defaultTimeout bounds a new session too; 5 s as etcd's dial: a loaded machine's
	// fsync stalls pass 2 s.
	defaultTimeout = 5 * time.Second
	// maxRequested keeps a ttl within the protocol's int32 milliseconds; the server
	// grants no more than its maximum anyway.
	maxRequested = 24 * time.Hour
)

// Locker takes locks on one ZooKeeper ensemble.
type Locker struct {
	name    string
	servers []string
	opts    pooloptions.Options
	// minGranted is the shortest session a server has granted when asked for less
	// (nanoseconds; 0 until learnt): later ttls below it are refused without asking.
	minGranted atomic.Int64

	held heldlease.Table[heldNode]

	mu      sync.Mutex
	idle    map[time.Duration][]*session // by requested timeout
	nIdle   int
	gone    goneLeases // why leases left held without their holder's Release
	closed  bool
	closing sync.WaitGroup // sessions being closed in the background
}

// heldNode is a granted lock: its node and the session that owns it.
type heldNode struct {
	node string
	s    *session
}

// New connects a locker to servers (host:port) and checks that one grants a session.
func New(ctx context.Context, name string, servers []string, opts pooloptions.Options) (*Locker, error) {
	if len(servers) == 0 {
		return nil, fmt.Errorf("%s: zookeeper servers: none given", name)
	}
	opts, err := opts.WithDefaults(name, defaultPoolSize, defaultTimeout)
	if err != nil {
		return nil, err
	}
	l := &Locker{name: name, servers: servers, opts: opts, idle: map[time.Duration][]*session{}, gone: newGoneLeases()}
	s, err := openSession(ctx, servers, 10*time.Second, opts.Timeout, opts.Dialer)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	l.discard(s)
	return l, nil
}

func (l *Locker) Strategy() string { return l.name }

// requestedTimeout is the session timeout a ttl asks for: whole milliseconds, rounded up.
func requestedTimeout(ttl time.Duration) time.Duration {
	ttl = min(ttl, maxRequested)
	return (ttl + time.Millisecond - 1) / time.Millisecond * time.Millisecond
}

// errTooShort refuses a ttl the server would stretch: the holder would believe it held
// the lock for less time than the server grants it, and the next owner would wait longer.
func errTooShort(ttl, minimum time.Duration) error {
	return fmt.Errorf("ttl = %v is below ZooKeeper's minimum session timeout %v (2 x tickTime): a lease cannot be "+
		"shorter than its session", ttl, minimum)
}

// call runs one round of requests bounded by ctx and the locker's timeout. go-zookeeper
// takes no context: a call cut short goes on in the background, and its session is in
// doubt (the caller discards it).
func (l *Locker) call(ctx context.Context, fn func() error) error {
	ctx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sessionFor opens a session whose timeout is ttl, the lease a grant on it keeps; a ttl
// below the server's minimum timeout is refused (remembered, so later calls ask no server).
func (l *Locker) sessionFor(ctx context.Context, ttl time.Duration) (*session, error) {
	if ttl <= 0 {
		return nil, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	requested := requestedTimeout(ttl)
	if m := time.Duration(l.minGranted.Load()); m > 0 && requested < m {
		return nil, errTooShort(ttl, m)
	}
	s, err := l.session(ctx, requested)
	if err != nil {
		return nil, err
	}
	if s.timeout > requested {
		l.minGranted.Store(int64(s.timeout))
		l.discard(s)
		return nil, errTooShort(ttl, s.timeout)
	}
	return s, nil
}

// Acquire makes one attempt on a session of its own, which a granted lease keeps.
func (l *Locker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	start := time.Now()
	s, err := l.sessionFor(ctx, ttl)
	if err != nil {
		return locks.Lease{}, err
	}
	var node string
	var fence int64
	err = l.call(ctx, func() (err error) {
		node, fence, err = attempt(s, key)
		return err
	})
	if errors.Is(err, locks.ErrNotAcquired) {
		l.putIdle(s)
		return locks.Lease{}, err
	}
	if err != nil {
		l.discard(s) // closing the session deletes a node a failed attempt may have made
		return locks.Lease{}, fmt.Errorf("%s: %w", l.name, err)
	}
	token := node + "@" + strconv.FormatInt(s.id, 16) // node names repeat only on a server that lost its disk
	validUntil := start.Add(s.timeout)
	if _, ok := l.held.Hold(token, key, validUntil, heldNode{node: node, s: s}, l.lapse); !ok {
		l.discard(s)
		return locks.Lease{}, fmt.Errorf("%s: locker is closed", l.name)
	}
	return locks.Lease{Key: key, Token: token, Start: start, ValidUntil: validUntil, Fence: fence, HasFence: true}, nil
}

// session returns an idle session asked with timeout requested, or opens one.
func (l *Locker) session(ctx context.Context, requested time.Duration) (*session, error) {
	l.mu.Lock()
	for pool := l.idle[requested]; len(pool) > 0; pool = l.idle[requested] {
		s := pool[len(pool)-1]
		l.idle[requested] = pool[:len(pool)-1]
		l.nIdle--
		if !s.lost() {
			l.mu.Unlock()
			return s, nil
		}
		l.discardLocked(s)
	}
	l.mu.Unlock()
	s, err := openSession(ctx, l.servers, requested, l.opts.Timeout, l.opts.Dialer)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.name, err)
	}
	return s, nil
}

// putIdle keeps a session that holds no node for a later attempt, or closes it.
func (l *Locker) putIdle(s *session) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || s.lost() || l.nIdle >= l.opts.PoolSize {
		l.discardLocked(s)
		return
	}
	l.idle[s.requested] = append(l.idle[s.requested], s)
	l.nIdle++
}

// discard closes a session in the background: the server then deletes its nodes (or
// expires it, if no server hears the close).
func (l *Locker) discard(s *session) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.discardLocked(s)
}

func (l *Locker) discardLocked(s *session) {
	l.closing.Add(1)
	go func() {
		defer l.closing.Done()
		s.conn.Close()
	}()
}

// Release deletes the lease's node and gives its session back to the pool.
func (l *Locker) Release(ctx context.Context, lease locks.Lease) error {
	h := l.held.Take(lease.Token, lease.Key)
	if h == nil {
		return l.notHeld(lease.Token)
	}
	return l.giveBack(ctx, h.Value)
}

// giveBack deletes h's node. A node already gone means the session expired and took it.
// When the connection drops mid-delete, it waits for the session's fate: reconnected,
// it deletes again; expired, the lease was lost.
func (l *Locker) giveBack(ctx context.Context, h heldNode) error {
	if h.s.lost() {
		l.discard(h.s)
		return fmt.Errorf("%w: %w", locks.ErrNotHeld, errSessionLost)
	}
	del := func() error { return l.call(ctx, func() error { return h.s.conn.Delete(h.node, -1) }) }
	err := del()
	retried := false
	if connectionTrouble(err) && l.settle(ctx, h.s) {
		err, retried = del(), true
	}
	switch {
	case err == nil, retried && errors.Is(err, zk.ErrNoNode) && !h.s.lost():
		// On a session that lived throughout, a node gone after a lost reply is our
		// own first delete: nothing else deletes it but the session's expiry.
		l.putIdle(h.s)
		return nil
	case h.s.lost(), errors.Is(err, zk.ErrNoNode), errors.Is(err, zk.ErrSessionExpired):
		l.discard(h.s)
		return fmt.Errorf("%w: %w", locks.ErrNotHeld, errSessionLost)
	default:
		l.discard(h.s) // the close deletes the node if the delete did not
		return fmt.Errorf("%s: delete %s: %w", l.name, h.node, err)
	}
}

// connectionTrouble says a call got no answer: the session's fate is not known yet.
func connectionTrouble(err error) bool {
	return errors.Is(err, zk.ErrConnectionClosed) || errors.Is(err, zk.ErrNoServer) ||
		errors.Is(err, context.DeadlineExceeded)
}

// settle waits, no longer than the session could live unheard nor than one call, until
// s is connected again (true) or known lost (false).
func (l *Locker) settle(ctx context.Context, s *session) bool {
	ctx, cancel := context.WithTimeout(ctx, min(s.timeout, l.opts.Timeout))
	defer cancel()
	for {
		if s.lost() {
			return false
		}
		if s.conn.State() == zk.StateHasSession {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Extend proves the lease's session alive and owning its node, then moves ValidUntil to
// a session timeout from the proof's start. ZooKeeper renews a session for the timeout
// it was granted with, whatever ttl asks. When the connection drops it waits for the
// session's fate, as giveBack does; a proof that still gets no answer keeps the lease
// (the session may live on through another server) unless its ValidUntil has passed.
func (l *Locker) Extend(ctx context.Context, lease locks.Lease, ttl time.Duration) (locks.Lease, error) {
	if ttl <= 0 {
		return lease, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	h := l.held.Get(lease.Token, lease.Key)
	if h == nil {
		return lease, l.notHeld(lease.Token)
	}
	n := h.Value
	start := time.Now()
	owned, err := l.prove(ctx, n)
	if connectionTrouble(err) && l.settle(ctx, n.s) {
		owned, err = l.prove(ctx, n)
	}
	if errors.Is(err, zk.ErrSessionExpired) || n.s.lost() || (err == nil && !owned) {
		if l.held.Take(lease.Token, lease.Key) == h {
			l.discard(n.s)
		}
		return lease, fmt.Errorf("%w: %w", locks.ErrNotHeld, errSessionLost)
	}
	if err != nil {
		if l.lapseNow(h) { // unproven and past its ValidUntil: do not count on it
			return lease, fmt.Errorf("%w: %w (unproven: %v)", locks.ErrNotHeld, errLapsed, err)
		}
		if l.held.Get(lease.Token, lease.Key) != h {
			return lease, l.notHeld(lease.Token) // lapsed or released meanwhile
		}
		return lease, fmt.Errorf("%s: prove session alive: %w", l.name, err)
	}
	validUntil := start.Add(n.s.timeout)
	if !l.held.Renew(h, validUntil) {
		return lease, l.notHeld(lease.Token) // lapsed or released meanwhile
	}
	lease.ValidUntil = validUntil
	return lease, nil
}

// prove runs ownedBy on h's session within one call.
func (l *Locker) prove(ctx context.Context, h heldNode) (bool, error) {
	var owned bool
	err := l.call(ctx, func() (err error) {
		owned, err = ownedBy(h.s, h.node)
		return err
	})
	if err != nil {
		return false, err // owned may still be written by a call cut short: never read it
	}
	return owned, nil
}

// lapse gives back a lease whose ValidUntil has passed without an Extend.
func (l *Locker) lapse(h *heldlease.Lease[heldNode]) { l.lapseNow(h) }

// lapseNow gives back h if it is still held and past its ValidUntil, in the background,
// and says whether it did.
func (l *Locker) lapseNow(h *heldlease.Lease[heldNode]) bool {
	lapsed := l.held.Expire(h, func() {
		why := errLapsed
		if h.Value.s.lost() {
			why = errSessionLost
		}
		l.mu.Lock()
		l.gone.remember(h.Token, why)
		l.mu.Unlock()
		// Counted under the table's lock, which Close takes first: Close then waits for the
		// give-back, and no session is discarded after Close has returned.
		l.closing.Add(1)
	})
	if lapsed {
		go func() {
			defer l.closing.Done()
			l.lapsed(h.Token, h.Value)
		}()
	}
	return lapsed
}

// lapsed deletes a lapsed lease's node and keeps what it learnt on the way.
func (l *Locker) lapsed(token string, h heldNode) {
	if err := l.giveBack(context.Background(), h); errors.Is(err, errSessionLost) {
		l.mu.Lock()
		l.gone.remember(token, errSessionLost) // the server expired it before the lapse could act
		l.mu.Unlock()
	}
}

// notHeld is ErrNotHeld for a token the locker does not hold, with the reason when it
// remembers one.
func (l *Locker) notHeld(token string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.notHeldLocked(token)
}

func (l *Locker) notHeldLocked(token string) error {
	if why := l.gone.reason(token); why != nil {
		return fmt.Errorf("%w: %w", locks.ErrNotHeld, why)
	}
	return locks.ErrNotHeld
}

// Close drops every held lease (closing its session deletes its node) and every idle
// session, and waits until they are closed.
func (l *Locker) Close() error {
	for _, h := range l.held.Close() {
		l.discard(h.Value.s)
	}
	l.mu.Lock()
	l.closed = true
	for requested, pool := range l.idle {
		for _, s := range pool {
			l.discardLocked(s)
		}
		delete(l.idle, requested)
	}
	l.nIdle = 0
	l.mu.Unlock()
	l.closing.Wait()
	return nil
}
