package testenv

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// HoldInChild runs this test binary again with only the test named test and env set,
// as a child that starts servers and prints "READY f1 f2 ..." (or "ERROR ...") once it
// holds them; it returns the child and the READY line's fields after "READY". The
// signal tests then stop the child and look for what it left behind; the child is
// killed when t ends.
func HoldInChild(t *testing.T, test, env string, fields int) (*exec.Cmd, []string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
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
	t.Fatalf("helper %s ended before it was ready: %v", test, sc.Err())
	return nil, nil
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
