package zktopo

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"time"
)

// settleTimeout bounds the session that opens a started server's transaction log.
const settleTimeout = 10 * time.Second

// settleDisk readies a server on a forgetful disk as one up a while would be, its
// disk written back (Linux: within 30 s) after a start: ZooKeeper left the snapshot of
// its first start unsynced (a crash reverted version-2/snapshot.0), and makes its
// transaction log at the first write after a start, fsyncing the log's content but
// never the directory naming it. A crash soon after the first start lost both, and the
// server then refused to start ("No snapshot found, but there are log entries"). So a
// session is opened and closed (two logged writes) and the disk written back; later
// writes stay as their fsyncs left them.
func (s *server) settleDisk(ctx context.Context) error {
	if s.disk == nil {
		return nil
	}
	if err := openLog(ctx, s.Addr()); err != nil {
		return fmt.Errorf("%s: open its transaction log: %w", s.name, err)
	}
	if err := s.disk.WriteBack(); err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	return nil
}

// openLog creates a session on the server at addr and closes it, speaking the wire
// protocol itself (a connect request, then closeSession): this package links no client.
func openLog(ctx context.Context, addr string) error {
	ctx, cancel := context.WithTimeout(ctx, settleTimeout)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	// ConnectRequest: protocol version 0, last zxid 0, timeout, session 0, a 16-byte password.
	connect := binary.BigEndian.AppendUint32(nil, 0)
	connect = binary.BigEndian.AppendUint64(connect, 0)
	connect = binary.BigEndian.AppendUint32(connect, uint32(settleTimeout.Milliseconds()))
	connect = binary.BigEndian.AppendUint64(connect, 0)
	connect = binary.BigEndian.AppendUint32(connect, 16)
	connect = append(connect, make([]byte, 16)...)
	if err := writeFrame(conn, connect); err != nil {
		return err
	}
	reply, err := readFrame(conn)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	// ConnectResponse: protocol version, timeout, session id; id 0 means refused.
	if len(reply) < 16 || binary.BigEndian.Uint64(reply[8:16]) == 0 {
		return fmt.Errorf("connect: no session granted (%d-byte reply)", len(reply))
	}
	// RequestHeader of closeSession: xid 1, type -11.
	closeSession := binary.BigEndian.AppendUint32(nil, 1)
	closeSession = binary.BigEndian.AppendUint32(closeSession, opCloseSession)
	if err := writeFrame(conn, closeSession); err != nil {
		return err
	}
	if _, err := readFrame(conn); err != nil {
		return fmt.Errorf("closeSession: %w", err)
	}
	return nil
}

// opCloseSession is closeSession's request type (-11), as its two's-complement bits.
const opCloseSession uint32 = 0xfffffff5

// writeFrame sends b behind its 4-byte length.
func writeFrame(w io.Writer, b []byte) error {
	_, err := w.Write(append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...))
	return err
}

// readFrame reads one length-prefixed reply.
func readFrame(r io.Reader) ([]byte, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	size := binary.BigEndian.Uint32(n[:])
	if size > 1<<20 {
		return nil, fmt.Errorf("a %d-byte reply", size)
	}
	b := make([]byte, size)
	_, err := io.ReadFull(r, b)
	return b, err
}
