package supervise_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/topologies/portlease"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// The child these tests supervise is this test binary run again with childEnv set: a
// tiny server that says childSay, listens on childAddr and answers "pong" to every
// connection; it exits on SIGTERM saying "quitting", unless told to ignore it.
const (
	childEnv    = "SUPERVISE_TEST_CHILD"
	childAddr   = "SUPERVISE_TEST_ADDR"
	childSay    = "SUPERVISE_TEST_SAY"
	childNoQuit = "SUPERVISE_TEST_NO_QUIT"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		os.Exit(runChild(mode))
	}
	os.Exit(m.Run())
}

func runChild(mode string) int {
	fmt.Println(os.Getenv(childSay))
	if mode == "fail" {
		return 1
	}
	quit := make(chan os.Signal, 1)
	signal.Notify(quit, syscall.SIGTERM)
	l, err := net.Listen("tcp", os.Getenv(childAddr))
	if err != nil {
		fmt.Println(err) // Go says "bind: address already in use"
		return 1
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("pong\n"))
			c.Close()
		}
	}()
	for range quit {
		if os.Getenv(childNoQuit) == "" {
			fmt.Println("quitting")
			return 0
		}
	}
	return 0
}

// child is a node running the test child on a leased port, with its output in a file.
type child struct {
	*supervise.Node
	addr   string
	says   string   // what the next start says first
	events []string // the hooks that ran, in order
}

func newChild(t *testing.T, mode string, cfg supervise.Config) *child {
	t.Helper()
	port, err := portlease.Take()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { portlease.Release(port) })
	c := &child{addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), says: "hello"}
	cfg.Name = "child-0"
	cfg.Addr = func() string { return c.addr }
	cfg.Command = func() (*exec.Cmd, error) { return childCommand(t, mode, c.addr, c.says), nil }
	cfg.Output = filepath.Join(t.TempDir(), "child.out")
	cfg.Ready = func(ctx context.Context) error { return ping(ctx, c.addr) }
	cfg.Stopped = func(int) { c.events = append(c.events, "stopped") }
	cfg.Continuing = func() { c.events = append(c.events, "continuing") }
	cfg.Killed = func() { c.events = append(c.events, "killed") }
	c.Node = supervise.New(cfg)
	t.Cleanup(c.Close)
	return c
}

// ping reads the child's "pong" within ctx.
func ping(ctx context.Context, addr string) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() }) // a child that exits never answers
	defer stop()
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(time.Second)
	}
	_ = conn.SetDeadline(deadline)
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "pong\n" {
		return fmt.Errorf("answer %q", line)
	}
	return nil
}

func quickPing(addr string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	return ping(ctx, addr)
}

func startCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// procStat is /proc/pid/stat's fields after the command name: state first, then ppid, pgrp.
func procStat(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	i := strings.LastIndexByte(string(b), ')')
	return strings.Fields(string(b[i+1:]))
}

// gone says whether pid has exited (and was reaped, or waits to be).
func gone(pid int) bool {
	st := procStat(pid)
	return st == nil || st[0] == "Z"
}

func TestStartServesInItsOwnGroupAndKillEndsIt(t *testing.T) {
	c := newChild(t, "serve", supervise.Config{})
	if err := c.Start(startCtx(t)); err != nil {
		t.Fatal(err)
	}
	pid := c.Pid()
	if !c.Running() || pid == 0 {
		t.Fatalf("after Start: running %v, pid %d", c.Running(), pid)
	}
	if err := quickPing(c.addr); err != nil {
		t.Fatalf("a started child does not answer: %v", err)
	}
	// Its own process group, so that a kill reaches all it forks.
	if st := procStat(pid); st == nil || st[2] != strconv.Itoa(pid) {
		t.Errorf("child %d: stat %v, want process group %d", pid, st, pid)
	}
	if err := c.Kill(); err != nil {
		t.Fatal(err)
	}
	if c.Running() || c.Pid() != 0 || !gone(pid) {
		t.Errorf("after Kill: running %v, pid %d, process %d gone %v", c.Running(), c.Pid(), pid, gone(pid))
	}
	if err := quickPing(c.addr); err == nil {
		t.Error("a killed child still answers")
	}
	if err := c.Kill(); err == nil || !strings.Contains(err.Error(), "not running") {
		t.Errorf("killing a dead child: %v, want not running", err)
	}
	if want := "killed"; strings.Join(c.events, ",") != want {
		t.Errorf("hooks ran %v, want %s", c.events, want)
	}
}

func TestPauseStopsTheChildAndResumeContinuesIt(t *testing.T) {
	c := newChild(t, "serve", supervise.Config{})
	if err := c.Start(startCtx(t)); err != nil {
		t.Fatal(err)
	}
	if err := c.Pause(); err != nil {
		t.Fatal(err)
	}
	if st := procStat(c.Pid()); st == nil || st[0] != "T" {
		t.Errorf("after Pause the child's state is %v, want T (stopped)", st)
	}
	if !c.Paused() || !c.Running() {
		t.Errorf("after Pause: paused %v, running %v; want both", c.Paused(), c.Running())
	}
	if err := quickPing(c.addr); err == nil {
		t.Error("a paused child answered")
	}
	if err := c.Resume(); err != nil {
		t.Fatal(err)
	}
	if c.Paused() {
		t.Error("still paused after Resume")
	}
	if err := quickPing(c.addr); err != nil {
		t.Errorf("a resumed child does not answer: %v", err)
	}
	if want := "stopped,continuing"; strings.Join(c.events, ",") != want {
		t.Errorf("hooks ran %v, want %s", c.events, want)
	}
	// A paused child still dies of a kill.
	if err := c.Pause(); err != nil {
		t.Fatal(err)
	}
	pid := c.Pid()
	if err := c.Kill(); err != nil {
		t.Fatal(err)
	}
	if !gone(pid) || c.Paused() {
		t.Errorf("a paused child killed: gone %v, paused %v", gone(pid), c.Paused())
	}
}

func TestRestartServesOnTheSameAddressFromAFreshStart(t *testing.T) {
	c := newChild(t, "serve", supervise.Config{})
	ctx := startCtx(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	oldPid := c.Pid()
	var order []string
	snapshot := func(context.Context) error {
		order = append(order, fmt.Sprintf("snapshot(old running %v)", !gone(oldPid)))
		return nil
	}
	between := func() error {
		order = append(order, fmt.Sprintf("between(old gone %v)", gone(oldPid)))
		c.says = "second start"
		return nil
	}
	if err := c.Restart(ctx, snapshot, between); err != nil {
		t.Fatal(err)
	}
	if want := "snapshot(old running true),between(old gone true)"; strings.Join(order, ",") != want {
		t.Errorf("restart ran %v, want %s", order, want)
	}
	if pid := c.Pid(); pid == 0 || pid == oldPid {
		t.Errorf("after Restart pid %d (was %d): want a new process", pid, oldPid)
	}
	if err := quickPing(c.addr); err != nil {
		t.Errorf("the restarted child does not answer on %s: %v", c.addr, err)
	}
	// The log tail is this start's: the first start's words are not in it.
	if tail := string(c.LogTail(800)); !strings.Contains(tail, "second start") || strings.Contains(tail, "hello") {
		t.Errorf("log tail after restart %q: want the second start's words only", tail)
	}
	// A failing snapshot stops the restart before it kills.
	pid := c.Pid()
	err := c.Restart(ctx, func(context.Context) error { return errors.New("disk full") }, nil)
	if err == nil || !strings.Contains(err.Error(), "disk full") || c.Pid() != pid {
		t.Errorf("restart with a failing snapshot: %v, pid %d (was %d)", err, c.Pid(), pid)
	}
}

func TestLogTailIsTheEndOfWhatTheChildWrote(t *testing.T) {
	c := newChild(t, "serve", supervise.Config{})
	c.says = strings.Repeat("x", 2000) + " the end"
	if err := c.Start(startCtx(t)); err != nil {
		t.Fatal(err)
	}
	tail := string(c.LogTail(100))
	if len(tail) > 100 || !strings.HasSuffix(tail, "the end") {
		t.Errorf("LogTail(100) = %q (%d bytes): want at most 100 bytes ending the child's words", tail, len(tail))
	}
}

func TestAStartThatFailsQuotesItsLog(t *testing.T) {
	c := newChild(t, "fail", supervise.Config{})
	c.says = "config line 3: no such setting"
	err := c.Start(startCtx(t))
	if err == nil {
		t.Fatal("a child that exits at once started")
	}
	for _, want := range []string{"child-0", c.addr, "did not come up", "no such setting"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if errors.Is(err, supervise.ErrPortTaken) || c.Running() {
		t.Errorf("port taken %v, running %v: want neither", errors.Is(err, supervise.ErrPortTaken), c.Running())
	}
}

func TestAStartThatTimesOutIsKilledAndQuotesItsLog(t *testing.T) {
	// The child serves on its own port; the probe asks another, where nobody answers.
	other, err := portlease.Take()
	if err != nil {
		t.Fatal(err)
	}
	defer portlease.Release(other)
	probeAddr := net.JoinHostPort("127.0.0.1", strconv.Itoa(other))
	c := newChild(t, "serve", supervise.Config{Attempt: 50 * time.Millisecond})
	c.says = "starting slowly"
	out := filepath.Join(t.TempDir(), "slow.out")
	n := supervise.New(supervise.Config{
		Name:    "slow-0",
		Addr:    func() string { return probeAddr },
		Command: func() (*exec.Cmd, error) { return childCommand(t, "serve", c.addr, c.says), nil },
		Output:  out,
		Ready:   func(ctx context.Context) error { return ping(ctx, probeAddr) },
	})
	defer n.Close()
	// The deadline passes once the child has written its line, however long a busy
	// machine takes to start it: the log, not the scheduler, is what the error quotes.
	ctx := expiresOnceWritten(t, out, c.says)
	err = n.Start(ctx)
	if err == nil || !strings.Contains(err.Error(), "deadline exceeded") || !strings.Contains(err.Error(), "starting slowly") {
		t.Errorf("start whose probe never answers: %v, want a deadline error quoting the log", err)
	}
	if n.Running() {
		t.Error("a child that never came up still runs")
	}
}

// expiresOnceWritten is a context whose deadline passes once path holds line (polled),
// or after a minute at most.
func expiresOnceWritten(t *testing.T, path, line string) context.Context {
	t.Helper()
	ctx := &signalledDeadline{Context: context.Background(), done: make(chan struct{})}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		defer close(ctx.done)
		for limit := time.After(time.Minute); ; {
			if b, _ := os.ReadFile(path); strings.Contains(string(b), line) {
				return
			}
			select {
			case <-limit:
				return
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return ctx
}

// signalledDeadline reads as past its deadline once done is closed.
type signalledDeadline struct {
	context.Context
	done chan struct{}
}

func (c *signalledDeadline) Done() <-chan struct{} { return c.done }
func (c *signalledDeadline) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// childCommand is the test child as a command of its own.
func childCommand(t *testing.T, mode, addr, say string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), childEnv+"="+mode, childAddr+"="+addr, childSay+"="+say)
	return cmd
}

// TestAPortTakenBeforeTheBindIsSaidAndRetried: another program binds the child's port
// first; the start says ErrPortTaken, and RetryPorts starts it on a new port.
func TestAPortTakenBeforeTheBindIsSaidAndRetried(t *testing.T) {
	c := newChild(t, "serve", supervise.Config{})
	l, err := net.Listen("tcp", c.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	err = c.Start(startCtx(t))
	if !errors.Is(err, supervise.ErrPortTaken) || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("start on a taken port: %v, want ErrPortTaken quoting the bind error", err)
	}
	attempts := 0
	err = supervise.RetryPorts(3, func() error {
		attempts++
		if attempts > 1 {
			port, err := portlease.Take()
			if err != nil {
				return err
			}
			t.Cleanup(func() { portlease.Release(port) })
			c.addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		}
		return c.Start(startCtx(t))
	})
	if err != nil || attempts != 2 {
		t.Fatalf("RetryPorts: %v after %d attempts, want success on the 2nd", err, attempts)
	}
	// An error that is not about a port is not retried.
	attempts = 0
	err = supervise.RetryPorts(3, func() error { attempts++; return errors.New("bad config") })
	if err == nil || attempts != 1 {
		t.Errorf("RetryPorts on another error: %v after %d attempts, want it at once", err, attempts)
	}
}

func TestCloseQuitsGracefullyOrKillsAfterTheWait(t *testing.T) {
	c := newChild(t, "serve", supervise.Config{Quit: syscall.SIGTERM, QuitWait: time.Minute})
	if err := c.Start(startCtx(t)); err != nil {
		t.Fatal(err)
	}
	if err := c.Pause(); err != nil { // a paused child must be continued to quit
		t.Fatal(err)
	}
	c.Close()
	if c.Running() || !strings.Contains(string(c.LogTail(800)), "quitting") {
		t.Errorf("after Close: running %v, log %q; want it to have quit", c.Running(), c.LogTail(800))
	}
	if err := c.Start(startCtx(t)); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("start after Close: %v, want closed", err)
	}

	stubborn := newChild(t, "serve", supervise.Config{Quit: syscall.SIGTERM, QuitWait: 200 * time.Millisecond})
	t.Setenv(childNoQuit, "1")
	if err := stubborn.Start(startCtx(t)); err != nil {
		t.Fatal(err)
	}
	pid := stubborn.Pid()
	stubborn.Close()
	if !gone(pid) || !strings.Contains(strings.Join(stubborn.events, ","), "killed") {
		t.Errorf("a child that ignores Quit: gone %v, hooks %v; want it killed", gone(pid), stubborn.events)
	}
}
