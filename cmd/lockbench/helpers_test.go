package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeTestFile writes content to name in dir and returns its path; a write that fails
// would let a test pass for the wrong reason, so it fails the test.
func writeTestFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// refusesBadInput runs args and wants exit 2, an error naming want, and nothing at
// out: a refusal must come before any results folder is made.
func refusesBadInput(t *testing.T, args []string, out, want string) {
	t.Helper()
	var stderr bytes.Buffer
	cli := run
	if slices.Contains(args, "--deployment") {
		cli = runOnDeployment
	}
	if code := cli(args, strings.NewReader(""), io.Discard, &stderr); code != exitUsage {
		t.Errorf("%v: exit %d, want %d (stderr %q)", args, code, exitUsage, stderr.String())
	}
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("%v: stderr %q does not name %q", args, stderr.String(), want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%v: %s exists after bad input (%v)", args, out, err)
	}
}

// mergeWorkers runs `lockbench merge` on the workers' folders and returns the merged
// folder, failing the test unless the merge succeeds.
func mergeWorkers(t *testing.T, workers []string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "merged")
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"merge", "--out", out}, workers...), nil, &stdout, &stderr); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr.String())
	}
	return out
}

// awaitOutput waits until watched holds text while the run whose exit code comes on
// code goes on; the run ending first, or two minutes passing, fails the test with
// all it printed, since the interrupt that follows would then prove nothing.
func awaitOutput(t *testing.T, watched *lockedBuffer, text string, code <-chan int, stdout, stderr *lockedBuffer) {
	t.Helper()
	deadline := time.After(2 * time.Minute)
	for !strings.Contains(watched.String(), text) {
		select {
		case c := <-code:
			t.Fatalf("the run ended (exit %d) before printing %q: %s%s", c, text, stdout.String(), stderr.String())
		case <-deadline:
			t.Fatalf("%q not printed in two minutes: %s%s", text, stdout.String(), stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// interruptRun sends this process SIGINT, as Ctrl-C would, and returns the exit code
// of the run started beside it; a run still going two minutes later, or a
// redis-server it leaves running, fails the test: Ctrl-C must not leak servers.
func interruptRun(t *testing.T, code <-chan int, stderr *lockedBuffer) int {
	t.Helper()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var c int
	select {
	case c = <-code:
	case <-time.After(2 * time.Minute):
		t.Fatalf("the run did not stop after SIGINT: %s", stderr.String())
	}
	if left := redisChildren(t); len(left) > 0 {
		t.Errorf("redis-server pids %v still run after the interrupted run returned", left)
	}
	return c
}

// refusedOnOtherRedisServer copies folder out, records another redis-server in the
// copy, and wants args resuming the copy refused: a resume must not mix servers.
func refusedOnOtherRedisServer(t *testing.T, args []string, out string) {
	t.Helper()
	other := copyFolder(t, out)
	otherRedisServer(t, other)
	refusedResume(t, with(args, "--resume", other), other, "redis_server is")
}

// editResultsJSON rewrites dir's results.json through edit, which fails the test
// itself when the file lacks what it would change (the refusal would prove nothing).
func editResultsJSON(t *testing.T, dir string, edit func(path string, b []byte) []byte) {
	t.Helper()
	path := filepath.Join(dir, "results.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, edit(path, b), 0o644); err != nil {
		t.Fatal(err)
	}
}
