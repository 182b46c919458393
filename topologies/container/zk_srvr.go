package container

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"time"
)

// zkSrvr asks a server for its srvr report, the fields zktopo reads ("Mode", "Zxid");
// a server outside a quorum answers without a mode: an error.
func zkSrvr(ctx context.Context, addr string) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	if _, err := conn.Write([]byte("srvr")); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(conn)
	if err != nil {
		return nil, fmt.Errorf("srvr on %s: %w", addr, err)
	}
	fields := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if fields["Mode"] == "" {
		return nil, fmt.Errorf("srvr on %s: no mode in %q", addr, strings.TrimSpace(string(b)))
	}
	return fields, nil
}

func zkMode(ctx context.Context, addr string) (string, error) {
	f, err := zkSrvr(ctx, addr)
	return f["Mode"], err
}
