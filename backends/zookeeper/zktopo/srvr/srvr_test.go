package srvr_test

import (
	"context"
	"net"
	"strings"
	"testing"

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
