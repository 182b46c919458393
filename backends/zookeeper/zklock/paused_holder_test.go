package zklock_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backends/zookeeper/zklock"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/locks/pooloptions"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// pausedTTL is the paused holder's lease: short, so the server expires it soon, and long
// enough that go-zookeeper, which closes a connection whose reply takes 2/3 of the
// session, keeps it on a busy machine (at 1 s, load 14 closed the holder's first create).
const pausedTTL = 4 * time.Second

// TestHelperPausedHolder is not a test: run as a child by the test below, it takes a
// lock on the servers in LOCKBENCH_ZK_SERVERS, prints its fence, then waits for SIGUSR1
// (sent once it was stopped past its session and resumed) and reports what Extend and
// Release answer.
func TestHelperPausedHolder(t *testing.T) {
	servers := os.Getenv("LOCKBENCH_ZK_SERVERS")
	if os.Getenv("LOCKBENCH_HELPER") != "zk-paused-holder" || servers == "" {
		t.Skip("helper process only")
	}
	ctx := context.Background()
	l, err := zklock.New(ctx, "paused-holder", strings.Split(servers, ","), pooloptions.Options{})
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	lease, err := l.Acquire(ctx, "paused", pausedTTL)
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	resumed := make(chan os.Signal, 1)
	signal.Notify(resumed, syscall.SIGUSR1)
	fmt.Println("READY", lease.Fence)
	<-resumed // the parent stops us, lets the session expire, resumes us, then says so
	_, err = l.Extend(ctx, lease, pausedTTL)
	fmt.Printf("EXTEND %v %v\n", errors.Is(err, locks.ErrNotHeld), err)
	err = l.Release(ctx, lease)
	fmt.Printf("RELEASE %v %v\n", errors.Is(err, locks.ErrNotHeld), err)
	os.Exit(0)
}

// TestPausedHolderLearnsItsSessionExpired stops a holder process (SIGSTOP: its
// heartbeats and timers stop with it) past its session timeout. The server expires the
// session, so another client gets the lock with a larger fence; the holder, resumed,
// hears ErrNotHeld from Extend and Release, and its Release frees nothing.
func TestPausedHolderLearnsItsSessionExpired(t *testing.T) {
	other, e := startStrategy(t, "zookeeper")
	cmd, lines := testenv.StartChild(t, "TestHelperPausedHolder", "LOCKBENCH_HELPER=zk-paused-holder", "LOCKBENCH_ZK_SERVERS="+strings.Join(e.Servers(), ","))
	next := func(prefix string) []string {
		t.Helper()
		for lines.Scan() {
			if f := strings.Fields(lines.Text()); len(f) > 0 && f[0] == prefix {
				return f[1:]
			}
			if strings.HasPrefix(lines.Text(), "ERROR") {
				t.Fatal(lines.Text())
			}
		}
		t.Fatalf("helper ended before it printed %s: %v", prefix, lines.Err())
		return nil
	}
	staleFence, _ := strconv.ParseInt(next("READY")[0], 10, 64)
	if err := syscall.Kill(cmd.Process.Pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := other.Acquire(ctx, "paused", pausedTTL); !errors.Is(err, locks.ErrNotAcquired) {
		t.Fatalf("acquire while the paused holder's session lives: %v, want ErrNotAcquired", err)
	}
	lease := lockstest.AcquireEventually(ctx, t, other, "paused", 30*time.Second, false)
	if lease.Token == "" {
		t.FailNow()
	}
	if lease.Fence <= staleFence {
		t.Errorf("fence after the paused holder's expiry %d, not above its %d", lease.Fence, staleFence)
	}
	for _, sig := range []syscall.Signal{syscall.SIGCONT, syscall.SIGUSR1} {
		if err := syscall.Kill(cmd.Process.Pid, sig); err != nil {
			t.Fatal(err)
		}
	}
	for _, op := range []string{"EXTEND", "RELEASE"} {
		f := next(op)
		if len(f) == 0 || f[0] != "true" {
			t.Errorf("paused holder's %s: %v, want ErrNotHeld", strings.ToLower(op), f)
		} else {
			t.Logf("paused holder's %s: %s", strings.ToLower(op), strings.Join(f[1:], " "))
		}
	}
	if _, err := other.Acquire(ctx, "paused", pausedTTL); !errors.Is(err, locks.ErrNotAcquired) {
		t.Errorf("acquire after the paused holder's release: %v, want ErrNotAcquired", err)
	}
	if err := other.Release(ctx, lease); err != nil {
		t.Errorf("new owner's release: %v", err)
	}
}
