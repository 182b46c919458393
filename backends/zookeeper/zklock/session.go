package zklock

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"
)

// errSessionLost says the server expired the session (or the client had to start a new
// one): every ephemeral node it held is gone, and may be another owner's by now.
var errSessionLost = errors.New("zookeeper session expired")

// authenticatedFormat is the message go-zookeeper logs once a server has granted (or
// renewed) a session, with its id and the timeout the server negotiated: the only place
// the client reports what the server granted (v1.0.4 keeps it unexported).
const authenticatedFormat = "authenticated: id=%d, timeout=%d"

// session is one ZooKeeper session on its own connection, used by one attempt or lease
// at a time: a session's requests are served in order, so sharing one would queue every
// client behind the others.
type session struct {
	conn      *zk.Conn
	requested time.Duration // the timeout asked for: the ttl, whole milliseconds

	granted  chan struct{} // closed once the server granted the session
	once     sync.Once
	id       int64         // set before granted is closed
	timeout  time.Duration // the server's negotiated timeout, set before granted is closed
	replaced atomic.Bool   // expired, or a new session took its place on conn
}

// sessionLog hears go-zookeeper's log for the granted session and drops the rest: its
// connection chatter would land in benchmark output.
type sessionLog struct{ s *session }

func (g sessionLog) Printf(format string, args ...any) {
	if format != authenticatedFormat || len(args) != 2 {
		return
	}
	id, okID := args[0].(int64)
	ms, okMs := args[1].(int32)
	if !okID || !okMs {
		return
	}
	g.s.authenticated(id, time.Duration(ms)*time.Millisecond)
}

// authenticated records the first grant; a later one under another id means the first
// session expired and the client silently made a new one.
func (s *session) authenticated(id int64, timeout time.Duration) {
	first := false
	s.once.Do(func() {
		s.id, s.timeout, first = id, timeout, true
		close(s.granted)
	})
	if !first && id != s.id {
		s.replaced.Store(true)
	}
}

func (s *session) onEvent(ev zk.Event) {
	if ev.Type == zk.EventSession && (ev.State == zk.StateExpired || ev.State == zk.StateAuthFailed) {
		s.replaced.Store(true)
	}
}

// lost says the session the lease was granted under is gone.
func (s *session) lost() bool {
	return s.replaced.Load() || s.conn.SessionID() != s.id
}

// openSession connects to servers and waits until one grants a session of timeout.
func openSession(ctx context.Context, servers []string, timeout, wait time.Duration,
	dial func(ctx context.Context, network, addr string) (net.Conn, error)) (*session, error) {
	s := &session{requested: timeout, granted: make(chan struct{})}
	var dialer zk.Dialer = net.DialTimeout
	if dial != nil {
		dialer = func(network, addr string, timeout time.Duration) (net.Conn, error) {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			return dial(ctx, network, addr)
		}
	}
	conn, _,
		err := zk.Connect(servers, timeout, zk.WithLogger(sessionLog{s}), zk.WithEventCallback(s.onEvent),
		zk.WithDialer(dialer))
	if err != nil {
		return nil, fmt.Errorf("connect to %v: %w", servers, err)
	}
	s.conn = conn
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-s.granted:
		return s, nil
	case <-timer.C:
		err = fmt.Errorf("no ZooKeeper server of %v granted a session within %v", servers, wait)
	case <-ctx.Done():
		err = fmt.Errorf("session from %v: %w", servers, ctx.Err())
	}
	go conn.Close() // Close waits up to a second for a server that may never answer
	return nil, err
}
