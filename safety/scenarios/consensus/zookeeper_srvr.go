package consensus

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// zkServerState is what a ZooKeeper server says of itself through the four-letter word
// srvr: its role and the last zxid it has applied.
type zkServerState struct {
	Mode string // leader, follower, standalone
	Zxid int64
}

// zkSrvr asks the server at addr for its state (srvr is enabled by topologies/zktopo).
func zkSrvr(ctx context.Context, addr string) (zkServerState, error) {
	var st zkServerState
	d := net.Dialer{Timeout: time.Second}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return st, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte("srvr")); err != nil {
		return st, err
	}
	sc := bufio.NewScanner(c)
	zxid := ""
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "Mode":
			st.Mode = strings.TrimSpace(v)
		case "Zxid":
			zxid = strings.TrimSpace(v)
		}
	}
	if st.Mode == "" || zxid == "" {
		return st, fmt.Errorf("srvr on %s: no mode or zxid in the answer (%v)", addr, sc.Err())
	}
	st.Zxid, err = strconv.ParseInt(strings.TrimPrefix(zxid, "0x"), 16, 64)
	if err != nil {
		return st, fmt.Errorf("srvr on %s: zxid %q: %w", addr, zxid, err)
	}
	return st, nil
}
