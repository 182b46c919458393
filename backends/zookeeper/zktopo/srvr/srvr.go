// Package srvr is a client of ZooKeeper's srvr four-letter word: a server's mode
// (leader, follower, standalone) and its zxid, without a client library. It imports
// nothing of lockbench, so that every ZooKeeper provider and check can use it.
package srvr

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// timeout bounds one exchange: a paused server never answers.
const timeout = time.Second

// The modes of a server that takes writes itself.
const (
	Leader     = "leader"
	Standalone = "standalone"
)

// Ask asks a server for its srvr report and returns its fields ("Mode", "Zxid"...).
// A server not in a quorum answers that it is not serving: an error.
func Ask(ctx context.Context, addr string) (map[string]string, error) {
	return askWithin(ctx, addr, timeout)
}

func askWithin(ctx context.Context, addr string, limit time.Duration) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	if _, err := conn.Write([]byte("srvr")); err != nil {
		return nil, err
	}
	fields := map[string]string{}
	var text []string
	sc := bufio.NewScanner(conn)
	for sc.Scan() {
		line := sc.Text()
		text = append(text, line)
		if k, v, ok := strings.Cut(line, ":"); ok {
			fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("srvr on %s: %w", addr, err)
	}
	if fields["Mode"] == "" {
		return nil, fmt.Errorf("srvr on %s: no mode in %q", addr, strings.Join(text, " / "))
	}
	return fields, nil
}

// Mode is the server's Mode in srvr: leader, follower, standalone (or observer).
func Mode(ctx context.Context, addr string) (string, error) {
	f, err := Ask(ctx, addr)
	if err != nil {
		return "", err
	}
	return f["Mode"], nil
}

// Patient asks one server again and again, as a wait for it to serve does. Each answer
// that did not come in time doubles its wait, up to maxPatience: a server the load slows
// past one second is found serving in the end instead of timing out forever. Its zero
// value is ready; it is safe for concurrent use.
type Patient struct{ wait atomic.Int64 }

// maxPatience bounds one exchange of a Patient.
const maxPatience = 16 * time.Second

// Mode is the server's mode, asked with the wait the earlier answers earned.
func (p *Patient) Mode(ctx context.Context, addr string) (string, error) {
	wait := p.Wait()
	f, err := askWithin(ctx, addr, wait)
	p.wait.Store(int64(next(wait, err)))
	if err != nil {
		return "", err
	}
	return f["Mode"], nil
}

// Wait is how long the next exchange may take.
func (p *Patient) Wait() time.Duration { return max(time.Duration(p.wait.Load()), timeout) }

// next is the wait after an exchange that waited wait and ended in err: twice as long
// after a timeout.
func next(wait time.Duration, err error) time.Duration {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
		return min(2*wait, maxPatience)
	}
	return wait
}

// State is what a server says of itself: its mode and the last zxid it has applied.
type State struct {
	Mode string
	Zxid int64
}

// Read is a server's srvr report as a State.
func Read(ctx context.Context, addr string) (State, error) { return readWithin(ctx, addr, timeout) }

// ReadPatiently is Read asked again after each answer that did not come in time, the
// wait doubling up to maxPatience: an observation of a server the load slowed past a
// second is an answer, not the trial's error. Any other error ends it at once.
func ReadPatiently(ctx context.Context, addr string) (State, error) {
	for wait := timeout; ; {
		s, err := readWithin(ctx, addr, wait)
		longer := next(wait, err)
		if err == nil || longer == wait || ctx.Err() != nil {
			return s, err
		}
		wait = longer
	}
}

func readWithin(ctx context.Context, addr string, limit time.Duration) (State, error) {
	f, err := askWithin(ctx, addr, limit)
	if err != nil {
		return State{}, err
	}
	zxid, err := strconv.ParseInt(strings.TrimPrefix(f["Zxid"], "0x"), 16, 64)
	if err != nil {
		return State{Mode: f["Mode"]}, fmt.Errorf("srvr on %s: zxid %q: %w", addr, f["Zxid"], err)
	}
	return State{Mode: f["Mode"], Zxid: zxid}, nil
}

// Leads says whether a mode takes writes itself.
func Leads(mode string) bool { return mode == Leader || mode == Standalone }
