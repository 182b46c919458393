package zktopo

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"time"
)

// OpenAndCloseSession creates a session on addr by hand (the wire format of a connect
// request) and hangs up: enough of a transaction to move the server's zxid, without a
// client library in this package's tests.
func OpenAndCloseSession(ctx context.Context, addr string) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	// protocolVersion, lastZxidSeen, timeOut (ms), sessionId, passwd (length-prefixed).
	body := make([]byte, 4+8+4+8+4+16)
	binary.BigEndian.PutUint32(body[12:], 10000)
	binary.BigEndian.PutUint32(body[24:], 16)
	frame := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	if _, err := conn.Write(append(frame, body...)); err != nil {
		return err
	}
	var size [4]byte
	if _, err := io.ReadFull(conn, size[:]); err != nil {
		return fmt.Errorf("connect response: %w", err)
	}
	resp := make([]byte, binary.BigEndian.Uint32(size[:]))
	if _, err := io.ReadFull(conn, resp); err != nil {
		return fmt.Errorf("connect response: %w", err)
	}
	if len(resp) < 16 || binary.BigEndian.Uint64(resp[8:16]) == 0 {
		return fmt.Errorf("no session granted: %x", resp)
	}
	return nil
}
