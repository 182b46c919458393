package container

import (
	"os/exec"
	"testing"
)

func TestParseStatReadsStateAndStartAfterAnyName(t *testing.T) {
	// A command name may hold spaces and parentheses: fields count from the last ')'.
	line := "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 98765 1000 10 18446744073709551615"
	state, start, err := parseStat(line)
	if err != nil || state != "S" || start != 98765 {
		t.Fatalf("parseStat = %q, %d, %v; want S, 98765", state, start, err)
	}
	if _, _, err := parseStat("4242 (short) S 1 2"); err == nil {
		t.Fatal("a stat line cut short was read")
	}
}

// TestAProcessIsKnownByItsStartNotItsPid: once the process identified has exited, or a
// pid holds a process started at another time, it is not running, so no signal or
// namespace entry reaches whichever program holds that pid now.
func TestAProcessIsKnownByItsStartNotItsPid(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p, err := procOf(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if !p.running() {
		t.Fatal("a live child is not running")
	}
	if other := (hostProc{pid: p.pid, start: p.start + 1}); other.running() {
		t.Fatal("a pid started at another time was taken for the process")
	}
	cmd.Process.Kill()
	cmd.Wait()
	if p.running() {
		t.Fatal("an exited, reaped child is running")
	}
	if (hostProc{}).running() {
		t.Fatal("no process is running")
	}
}
