package severed

import (
	"bufio"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/lockbench/lockbench/topologies/testenv"
)

// Through the proxy a line comes back; once severed, the open connection ends (as a
// dead peer's would) and a new one is refused.
func TestSeverEndsEveryConnectionForGood(t *testing.T) {
	p, err := listen(testenv.Serve(t, func(c net.Conn) { _, _ = io.Copy(c, c); c.Close() })) // an echo server
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
	p.close()                                          // twice is safe
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
