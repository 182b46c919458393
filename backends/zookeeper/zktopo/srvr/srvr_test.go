package srvr_test

import (
	"context"
	"errors"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backends/zookeeper/zktopo/srvr"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// answering serves one canned srvr answer to every connection that asks for it.
func answering(t *testing.T, answer string) string {
	return testenv.Serve(t, func(c net.Conn) {
		defer c.Close()
		buf := make([]byte, 4)
		if _, err := c.Read(buf); err == nil && string(buf) == "srvr" {
			_, _ = c.Write([]byte(answer))
		}
	})
}

func TestReadParsesModeAndZxid(t *testing.T) {
	addr := answering(t, "Zookeeper version: 3.8.0\nLatency min/avg/max: 0/0.0/0\nZxid: 0x20000000a\nMode: follower\nNode count: 5\n")
	st, err := srvr.Read(context.Background(), addr)
	if err != nil || st.Mode != "follower" || st.Zxid != 0x20000000a {
		t.Fatalf("Read = %+v, %v; want follower at 0x20000000a", st, err)
	}
	if m, err := srvr.Mode(context.Background(), addr); err != nil || srvr.Leads(m) {
		t.Errorf("Mode = %q, %v: a follower does not lead", m, err)
	}
	if !srvr.Leads(srvr.Standalone) || !srvr.Leads(srvr.Leader) {
		t.Error("leader and standalone take writes themselves")
	}
}

func TestAnAnswerWithoutModeOrZxidIsAnError(t *testing.T) {
	notServing := answering(t, "This ZooKeeper instance is not currently serving requests\n")
	if _, err := srvr.Ask(context.Background(), notServing); err == nil || !strings.Contains(err.Error(), "not currently serving") {
		t.Errorf("a server outside a quorum: %v, want an error quoting it", err)
	}
	badZxid := answering(t, "Zxid: zero\nMode: leader\n")
	if st, err := srvr.Read(context.Background(), badZxid); err == nil {
		t.Errorf("zxid %q read as %+v", "zero", st)
	}
}

// answeringLate serves srvr with reply 1.5 s after it was asked, past a one-second
// exchange; an asker that gave up has closed its end, and is not answered.
func answeringLate(t *testing.T, reply string) string {
	const late = 1500 * time.Millisecond
	return testenv.Serve(t, func(c net.Conn) {
		defer c.Close()
		buf := make([]byte, 4)
		if _, err := c.Read(buf); err != nil {
			return
		}
		_ = c.SetReadDeadline(time.Now().Add(late))
		if _, err := c.Read(buf); errors.Is(err, os.ErrDeadlineExceeded) {
			_, _ = c.Write([]byte(reply))
		}
	})
}

// TestAPatientAskerWaitsOutASlowServer: a server that answers srvr only 1.5 s after it
// was asked never answers a one-second exchange; a Patient doubles its wait after the
// timeout and reads the mode (an asker that never grew its wait would ask for a minute).
func TestAPatientAskerWaitsOutASlowServer(t *testing.T) {
	addr := answeringLate(t, "Mode: leader\n")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var asker srvr.Patient
	var timeouts int
	for {
		m, err := asker.Mode(ctx, addr)
		if err == nil {
			if m != srvr.Leader {
				t.Fatalf("mode %q, want leader", m)
			}
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("no answer within a minute (wait now %v): %v", asker.Wait(), err)
		}
		timeouts++
	}
	t.Logf("answered after %d timeouts, with a wait of %v", timeouts, asker.Wait())
}

// TestAPatientAskerKeepsItsWaitOnOtherErrors: only a timeout earns a longer wait; a
// refused connection or a server outside a quorum asks again as soon.
func TestAPatientAskerKeepsItsWaitOnOtherErrors(t *testing.T) {
	notServing := answering(t, "This ZooKeeper instance is not currently serving requests\n")
	var asker srvr.Patient
	for range 3 {
		if _, err := asker.Mode(context.Background(), notServing); err == nil {
			t.Fatal("a server outside a quorum has no mode")
		}
	}
	if asker.Wait() != time.Second {
		t.Errorf("wait %v after three quick refusals, want 1s", asker.Wait())
	}
}

// TestAPatientReadWaitsOutASlowServer: a server that answers srvr only 1.5 s after it
// was asked is read by ReadPatiently (its first one-second exchange times out, the next
// waits two), where Read times out; a server that closes at once ends it at once.
func TestAPatientReadWaitsOutASlowServer(t *testing.T) {
	addr := answeringLate(t, "Mode: follower\nZxid: 0x10000000c\n")
	ctx := context.Background()
	if _, err := srvr.Read(ctx, addr); err == nil {
		t.Fatal("a one-second read answered a server 1.5 s late")
	}
	s, err := srvr.ReadPatiently(ctx, addr)
	if err != nil || s.Mode != "follower" || s.Zxid != 0x10000000c {
		t.Fatalf("ReadPatiently = %+v, %v; want a follower at zxid 0x10000000c", s, err)
	}
	closed := testenv.Serve(t, func(c net.Conn) { c.Close() })
	if _, err := srvr.ReadPatiently(ctx, closed); err == nil {
		t.Fatal("a server that closes at once was read")
	}
}
