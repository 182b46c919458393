package severed

import (
	"bufio"
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

// echo serves lines back on 127.0.0.1 until the test ends.
func echo(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(c, c); c.Close() }()
		}
	}()
	return ln.Addr().String()
}

// Through the proxy a line comes back; once severed, the open connection ends (as a
// dead peer's would) and a new one is refused.
func TestSeverEndsEveryConnectionForGood(t *testing.T) {
	p, err := listen(echo(t))
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", p.addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	if _, err := c.Write([]byte("ping\n")); err != nil {
		t.Fatal(err)
	}
	if line, err := r.ReadString('\n'); err != nil || line != "ping\n" {
		t.Fatalf("through the proxy: %q, %v", line, err)
	}
	p.close()
	p.close() // twice is safe
	_ = c.SetReadDeadline(time.Now().Add(time.Minute)) // a hang would be the bug, not a slow machine
	var timeout net.Error
	if _, err := r.ReadString('\n'); err == nil || errors.As(err, &timeout) && timeout.Timeout() {
		t.Errorf("the open connection was not ended by the cut: %v", err)
	}
	if d, err := net.Dial("tcp", p.addr()); err == nil {
		d.Close()
		t.Errorf("a new connection was accepted after the cut")
	}
}
