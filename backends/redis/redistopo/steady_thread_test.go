package redistopo_test

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"golang.org/x/sys/unix"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/redistopo"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestServerOutlivesTheThreadThatStartedIt: the parent-death signal follows the thread
// that forked a server, so a server started from a goroutine that then ends locked to
// its thread (as the namespace dialer's do) was SIGKILLed when that thread exited (the
// CI failure of TestPartitionScenariosRefuseProcessProvider). Servers must start from
// a thread that never exits, and outlive any other.
func TestServerOutlivesTheThreadThatStartedIt(t *testing.T) {
	testenv.RequireRedis(t)
	type started struct {
		topo topologies.Topology
		tid  int
		err  error
	}
	var s started
	var pid int
	s.tid = onEndingThread(func() {
		s.topo, s.err = redistopo.Process{}.Start(context.Background(), backend.Spec{Kind: topologies.Single})
		if s.err == nil {
			pid = serverPid(s.topo.Masters()[0])
		}
	})
	if s.err != nil {
		t.Fatal(s.err)
	}
	defer s.topo.Close()
	if pid == 0 {
		t.Fatal("no process_id in INFO while the starting thread still ran")
	}
	// The thread is gone once its task leaves /proc: its parent-death signals are sent.
	task := "/proc/self/task/" + strconv.Itoa(s.tid)
	for _, err := os.Stat(task); err == nil; _, err = os.Stat(task) {
		time.Sleep(time.Millisecond)
	}
	// A SIGKILLed server is gone within moments; one that was not answers all along.
	for i := 0; i < 200; i++ {
		if testenv.ExitedOrZombie(pid) {
			t.Fatalf("redis-server %d died with the thread that started it", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := client(t, s.topo.Masters()[0]).Ping(context.Background()).Err(); err != nil {
		t.Fatalf("redis-server %d does not answer after the thread ended: %v", pid, err)
	}
}

// onEndingThread runs f on a thread the runtime ends once f returns, and gives its id.
// The main thread is never ended (the runtime parks it instead): a goroutine that finds
// itself there keeps it locked and hands f to another.
func onEndingThread(f func()) int {
	done := make(chan int, 1)
	var run func()
	run = func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		if unix.Gettid() == os.Getpid() {
			go run()
			return
		}
		f()
		done <- unix.Gettid()
	}
	go run()
	return <-done
}

// serverPid is the process_id a node reports in INFO, 0 if it does not answer.
func serverPid(n topologies.Node) int {
	c := redis.NewClient(&redis.Options{Addr: n.Addr(), MaxRetries: -1})
	defer c.Close()
	info, err := c.Info(context.Background(), "server").Result()
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "process_id:"); ok {
			pid, _ := strconv.Atoi(v)
			return pid
		}
	}
	return 0
}
