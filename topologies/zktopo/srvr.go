package zktopo

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strings"
	"time"
)

// srvrTimeout bounds one four-letter-word exchange: a paused server never answers.
const srvrTimeout = time.Second

// Modes a server reports in srvr.
const (
	modeLeader     = "leader"
	modeFollower   = "follower"
	modeStandalone = "standalone"
)

// srvr asks a server for its srvr report and returns its fields ("Mode", "Zxid"...).
// A server not in a quorum answers that it is not serving: an error.
func srvr(ctx context.Context, addr string) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(ctx, srvrTimeout)
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

// mode is the server's Mode in srvr: leader, follower, standalone (or observer).
func mode(ctx context.Context, addr string) (string, error) {
	f, err := srvr(ctx, addr)
	if err != nil {
		return "", err
	}
	return f["Mode"], nil
}

// leads says whether a mode takes writes itself.
func leads(mode string) bool { return mode == modeLeader || mode == modeStandalone }
