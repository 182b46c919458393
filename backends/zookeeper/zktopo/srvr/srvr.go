// Package srvr is a client of ZooKeeper's srvr four-letter word: a server's mode
// (leader, follower, standalone) and its zxid, without a client library. It imports
// nothing of lockbench, so that every ZooKeeper provider and check can use it.
package srvr

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
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
	ctx, cancel := context.WithTimeout(ctx, timeout)
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

// State is what a server says of itself: its mode and the last zxid it has applied.
type State struct {
	Mode string
	Zxid int64
}

// Read is a server's srvr report as a State.
func Read(ctx context.Context, addr string) (State, error) {
	f, err := Ask(ctx, addr)
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
