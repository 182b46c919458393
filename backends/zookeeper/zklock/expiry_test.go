package zklock_test

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backends/zookeeper/zklock"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/locks/pooloptions"
)

// cutter dials the servers for one locker and can cut that locker off: it closes every
// connection it opened and refuses new ones until healed, as a network partition would.
type cutter struct {
	mu    sync.Mutex
	cut   bool
	conns []net.Conn
}

var errCut = errors.New("cut off by the test")

func (c *cutter) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cut {
		return nil, errCut
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, network, addr)
	if err == nil {
		c.conns = append(c.conns, conn)
	}
	return conn, err
}

func (c *cutter) cutOff() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cut = true
	for _, conn := range c.conns {
		conn.Close()
	}
	c.conns = nil
}

func (c *cutter) heal() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cut = false
}

// TestCutOffHolderLosesItsLockOnlyBySessionExpiry cuts the holder off from the servers
// right after its grant, so that nothing it does can reach them: the next owner gets in
// once the server expires the holder's session, never before the holder's ValidUntil,
// with a larger fence; the stale holder's Release and Extend then answer ErrNotHeld and
// do not free the new owner's lock. The session is 10 s: at 2 s, at load 29, the other
// client's first acquire after the cut was granted, the session already expired.
func TestCutOffHolderLosesItsLockOnlyBySessionExpiry(t *testing.T) {
	t.Parallel()
	other, e := startStrategy(t, "zookeeper")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var link cutter
	holder, err := zklock.New(ctx, "holder", e.Servers(), pooloptions.Options{Dialer: link.dial})
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()

	const ttl = 10 * time.Second
	stale, err := holder.Acquire(ctx, "cut", ttl)
	if err != nil {
		t.Fatal(err)
	}
	link.cutOff()
	if _, err := other.Acquire(ctx, "cut", ttl); !errors.Is(err, locks.ErrNotAcquired) {
		t.Fatalf("acquire while the cut-off holder's session lives: %v, want ErrNotAcquired", err)
	}
	next := lockstest.AcquireEventually(ctx, t, other, "cut", ttl, false)
	granted := time.Now()
	if next.Token == "" {
		t.FailNow()
	}
	if granted.Before(stale.ValidUntil) {
		t.Errorf("next owner got in at %v, before the stale holder's ValidUntil %v", granted, stale.ValidUntil)
	}
	if next.Fence <= stale.Fence {
		t.Errorf("next fence %d not above the stale holder's %d", next.Fence, stale.Fence)
	}
	link.heal()
	if _, err := holder.Extend(ctx, stale, ttl); !errors.Is(err, locks.ErrNotHeld) {
		t.Errorf("stale holder's extend: %v, want ErrNotHeld", err)
	}
	if err := holder.Release(ctx, stale); !errors.Is(err, locks.ErrNotHeld) {
		t.Errorf("stale holder's release: %v, want ErrNotHeld", err)
	}
	if _, err := other.Acquire(ctx, "cut", ttl); !errors.Is(err, locks.ErrNotAcquired) {
		t.Errorf("acquire after the stale holder's release: %v, want ErrNotAcquired (the new owner still holds it)", err)
	}
	if err := other.Release(ctx, next); err != nil {
		t.Errorf("new owner's release: %v", err)
	}
	// The healed holder takes locks again, on a fresh session.
	again := lockstest.AcquireEventually(ctx, t, holder, "cut", ttl, true)
	if again.Token != "" {
		holder.Release(ctx, again)
	}
}
