package redislock_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backends/redis/redislock"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// waitFailingServer speaks just enough RESP for a wait locker: it loads scripts,
// grants the SET, and answers WAIT with an error, as a server that is not (or no
// longer) a master does.
func waitFailingServer(t *testing.T) string { return testenv.Serve(t, serveFailingWait) }

func serveFailingWait(conn net.Conn) {
	defer conn.Close()
	r := bufio.NewReader(conn)
	for {
		args, err := readCommand(r)
		if err != nil {
			return
		}
		switch strings.ToUpper(args[0]) {
		case "HELLO":
			conn.Write([]byte("*0\r\n"))
		case "SCRIPT":
			fmt.Fprintf(conn, "$40\r\n%040d\r\n", 0)
		case "SET":
			conn.Write([]byte("+OK\r\n"))
		case "WAIT":
			conn.Write([]byte("-ERR WAIT cannot be used with replica instances\r\n"))
		default:
			conn.Write([]byte(":1\r\n")) // the best-effort release
		}
	}
}

// readCommand reads one RESP array of bulk strings.
func readCommand(r *bufio.Reader) ([]string, error) {
	var n int
	if _, err := fmt.Fscanf(r, "*%d\r\n", &n); err != nil {
		return nil, err
	}
	args := make([]string, n)
	for i := range args {
		var size int
		if _, err := fmt.Fscanf(r, "$%d\r\n", &size); err != nil {
			return nil, err
		}
		buf := make([]byte, size+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		args[i] = string(buf[:size])
	}
	return args, nil
}

// A WAIT that failed is not the replicas refusing the lock: callers count
// ErrNotReplicated as the safety mechanism working, so only too few acknowledgements
// may wrap it.
func TestWaitErrorIsNotARefusal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	l, err := redislock.NewWait(ctx, waitFailingServer(t), locks.WaitOptions{Replicas: 1, Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, err = l.Acquire(ctx, "k", time.Second)
	if err == nil {
		t.Fatal("granted though WAIT failed")
	}
	if errors.Is(err, locks.ErrNotReplicated) {
		t.Fatalf("a failed WAIT reads as a refusal: %v", err)
	}
}
