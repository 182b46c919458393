package testenv

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// HoldInChild runs this test binary again with only the test named test and env set,
// as a child that starts servers and prints "READY f1 f2 ..." (or "ERROR ...") once it
// holds them; it returns the child and the READY line's fields after "READY". The
// signal tests then stop the child and look for what it left behind; the child is
// killed when t ends.
func HoldInChild(t *testing.T, test, env string, fields int) (*exec.Cmd, []string) {
	t.Helper()
	cmd, sc, stderr := startChild(t, test, env)
	for sc.Scan() {
		got := strings.Fields(sc.Text())
		if len(got) == fields+1 && got[0] == "READY" {
			go func() { // keep draining so the child never blocks on a full pipe
				for sc.Scan() {
				}
			}()
			return cmd, got[1:]
		}
		if strings.HasPrefix(sc.Text(), "ERROR") {
			t.Fatal(sc.Text())
		}
	}
	// A child that dies unready (a panic, a fatal error) says why only on its stderr.
	waitErr := cmd.Wait()
	t.Fatalf("helper %s ended before it was ready (%v, read: %v); its stderr ends:\n%s", test, waitErr, sc.Err(), stderr)
	return nil, nil
}

// StartChild runs this test binary again with only the test named test and env added
// to the environment, killed when t ends; it returns the child and a scanner of its
// stdout. Every test that drives a helper process of its own starts it this way.
func StartChild(t *testing.T, test string, env ...string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd, sc, _ := startChild(t, test, env...)
	return cmd, sc
}

// startChild is StartChild that also keeps the end of the child's stderr.
func startChild(t *testing.T, test string, env ...string) (*exec.Cmd, *bufio.Scanner, *tail) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(os.Environ(), env...)
	stderr := &tail{max: 8 << 10}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewScanner(out), stderr
}

// tail keeps the last max bytes written to it: enough of a dying child's stderr to say
// why, however much it wrote before.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tail) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tail) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// Pids reads a comma-separated list of process ids, as a READY line carries them.
func Pids(list string) []int {
	var pids []int
	for _, p := range strings.Split(list, ",") {
		if pid, err := strconv.Atoi(p); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Hold is the child side of HoldInChild: run as the test the parent named, with
// LOCKBENCH_HELPER=helper, it calls hold (which starts servers and returns the READY
// line's fields), prints them and waits to be signalled; run as an ordinary test it
// skips.
func Hold(t *testing.T, helper string, hold func() ([]string, error)) {
	if os.Getenv("LOCKBENCH_HELPER") != helper {
		t.Skip("helper process only")
	}
	fields, err := hold()
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	fmt.Printf("READY %s\n", strings.Join(fields, " "))
	time.Sleep(time.Minute)
	os.Exit(3) // never reached when the parent signals us
}

// JoinPids is a READY line's field for a list of process ids: the inverse of Pids.
func JoinPids(pids []int) string {
	var s []string
	for _, p := range pids {
		s = append(s, strconv.Itoa(p))
	}
	return strings.Join(s, ",")
}

// SignalChild sends sig to the child HoldInChild started and fails unless the child
// dies of it.
func SignalChild(t *testing.T, cmd *exec.Cmd, sig syscall.Signal) {
	t.Helper()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	status, _ := err.(*exec.ExitError)
	if status == nil || !status.Sys().(syscall.WaitStatus).Signaled() {
		t.Errorf("helper should die of %v, got %v", sig, err)
	}
}

// Exited says no process has the id (kill -0 finds none).
func Exited(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// WaitGone waits until gone says each pid is, for at most within: processes die
// asynchronously after a signal; the bound only keeps a broken test from hanging. It
// fails naming what is still there.
func WaitGone(t *testing.T, within time.Duration, what string, pids []int, gone func(pid int) bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for _, pid := range pids {
		for !gone(pid) {
			if time.Now().After(deadline) {
				t.Errorf("%s pid %d still exists", what, pid)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
