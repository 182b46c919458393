package testenv

import (
	"net"
	"testing"
)

// Serve listens on a free loopback port until tb ends and hands each connection to
// handle in a goroutine of its own: a fake server speaking just enough of a protocol.
// It returns the address to dial.
func Serve(tb testing.TB, handle func(net.Conn)) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { l.Close() })
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go handle(conn)
		}
	}()
	return l.Addr().String()
}
