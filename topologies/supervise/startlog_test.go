package supervise

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The CI failure this guards: the bind error lay more than 800 bytes above the end of
// ZooKeeper's log, under its stack trace, and a tail search missed it.
func TestStartLogFindsABindErrorFarAboveTheEnd(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "server.log")
	out := filepath.Join(dir, "server.out")
	if err := os.WriteFile(log, []byte("an earlier start: all fine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mark := MarkStartLog(out, log)
	trace := strings.Repeat("\tat sun.nio.ch.Net.bind(Net.java:555)\n", 100)
	appendTo(t, log, "java.net.BindException: Address already in use\n"+trace)
	if !mark.PortTaken() {
		t.Fatalf("bind error %d bytes above the end not found", len(trace))
	}
	if got := mark.Tail(50); len(got) > 50 || !strings.HasSuffix(string(got), "Net.java:555)") {
		t.Fatalf("tail %q: want the last 50 bytes", got)
	}
}

func TestStartLogIgnoresWhatAnEarlierStartWrote(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "server.log")
	if err := os.WriteFile(log, []byte("bind: address already in use\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mark := MarkStartLog(log)
	appendTo(t, log, "FATAL: could not load config\n")
	if mark.PortTaken() {
		t.Fatal("an earlier start's bind error blamed on this start")
	}
	if got := string(mark.Bytes()); got != "FATAL: could not load config\n" {
		t.Fatalf("since the mark: %q", got)
	}
}

func TestStartLogReadsARewrittenFileFromItsStart(t *testing.T) {
	log := filepath.Join(t.TempDir(), "server.log")
	if err := os.WriteFile(log, []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	mark := MarkStartLog(log)
	if err := os.WriteFile(log, []byte("listen tcp 127.0.0.1:1: bind: address already in use\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !mark.PortTaken() {
		t.Fatal("a file rewritten shorter than the mark was not read from its start")
	}
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}
