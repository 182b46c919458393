package zklock

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/lockbench/lockbench/locks"
)

var _ locks.Waiter = (*Locker)(nil)

// Waiting is go-zookeeper's lock recipe: the queue of sequential nodes in the key's dir.
func (l *Locker) Waiting() string {
	return "go-zookeeper zk.Lock: sequential-node queue, each waiter watches its predecessor"
}

// AcquireWaiting queues on key with go-zookeeper's Lock, on a session of its own whose
// timeout is the ttl, as Acquire's: the client heartbeats it while the node queues (a
// wait may outlast ttl), and once granted the lease runs one session timeout from the
// proof that the session owns the lowest node. Lock takes no context: a wait cut off
// by ctx closes the session, which deletes its node, queued or already granted.
func (l *Locker) AcquireWaiting(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	start := time.Now()
	s, err := l.sessionFor(ctx, ttl)
	if err != nil {
		return locks.Lease{}, err
	}
	done := make(chan error, 1)
	go func() { done <- zk.NewLock(s.conn, lockDir(key), openACL).Lock() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		// Closed here, not in the background: once Close returns the server has deleted
		// our node (or Close gave up after a second and the session expires by itself).
		s.conn.Close()
		return locks.Lease{}, fmt.Errorf("%s: waited %v: %w", l.name, time.Since(start).Round(time.Millisecond), ctx.Err())
	}
	if err != nil {
		l.discard(s) // closing the session deletes a node the recipe may have left
		return locks.Lease{}, fmt.Errorf("%s: lock recipe on %s: %w", l.name, lockDir(key), err)
	}
	proved := time.Now()
	var node string
	var fence int64
	err = l.call(ctx, func() (err error) {
		node, fence, err = grantedNode(s, key)
		return err
	})
	if err != nil {
		l.discard(s)
		return locks.Lease{}, fmt.Errorf("%s: granted node on %s: %w", l.name, lockDir(key), err)
	}
	token := node + "@" + strconv.FormatInt(s.id, 16)
	validUntil := proved.Add(s.timeout)
	if _, ok := l.held.Hold(token, key, validUntil, heldNode{node: node, s: s}, l.lapse); !ok {
		l.discard(s)
		return locks.Lease{}, fmt.Errorf("%s: locker is closed", l.name)
	}
	return locks.Lease{Key: key, Token: token, Start: start, ValidUntil: validUntil, Fence: fence, HasFence: true}, nil
}

// grantedNode finds the node the recipe was granted (zk.Lock keeps its path to itself):
// the lowest in the key's dir, which must belong to s. It returns the node and its czxid.
func grantedNode(s *session, key string) (string, int64, error) {
	dir := lockDir(key)
	children, _, err := s.conn.Children(dir)
	if err != nil {
		return "", 0, fmt.Errorf("list %s: %w", dir, err)
	}
	first := lowest(children)
	if first == "" {
		return "", 0, fmt.Errorf("%s is empty after the grant: %w", dir, errSessionLost)
	}
	node := path.Join(dir, first)
	exists, stat, err := s.conn.Exists(node)
	if err != nil {
		return "", 0, fmt.Errorf("stat %s: %w", node, err)
	}
	if !exists || stat.EphemeralOwner != s.id {
		return "", 0, fmt.Errorf("lowest node %s is not this session's: %w", node, errSessionLost)
	}
	return node, stat.Czxid, nil
}
