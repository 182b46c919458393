package crashfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/internal/reexec"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func needsFUSEHere(t *testing.T) {
	t.Helper()
	testenv.NeedsServers(t)
	if _, err := os.Stat("/dev/fuse"); err != nil {
		testenv.MissingTool(t, err)
	}
	if _, err := exec.LookPath("fusermount3"); err != nil && os.Geteuid() != 0 {
		testenv.MissingTool(t, err)
	}
}

// mounted says the kernel lists a mount at dir.
func mounted(t *testing.T, dir string) bool {
	t.Helper()
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 4 && f[4] == dir {
			return true
		}
	}
	return false
}

// startHelper mounts dir/mnt from dir/backing in a helper, unmounted when t ends.
func startHelper(t *testing.T) (*Helper, string) {
	t.Helper()
	needsFUSEHere(t)
	dir := t.TempDir()
	backing, mnt := filepath.Join(dir, "backing"), filepath.Join(dir, "mnt")
	for _, d := range []string{backing, mnt} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h, err := MountInHelper(backing, mnt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Unmount() })
	return h, mnt
}

// The mount is served by a process of its own running the helper program (make test
// names a build without the race detector; else this test binary), not by this one.
func TestTheMountIsServedByAHelperProcess(t *testing.T) {
	h, mnt := startHelper(t)
	want, err := reexec.Executable()
	if err != nil {
		t.Fatal(err)
	}
	want, _ = filepath.EvalSymlinks(want)
	pid := h.Pid()
	if pid == os.Getpid() {
		t.Fatalf("the mount is served by this process (pid %d)", pid)
	}
	if exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe"); err != nil || exe != want {
		t.Errorf("the helper runs %q (%v), want %s", exe, err, want)
	}
	if !mounted(t, mnt) {
		t.Fatalf("no mount at %s", mnt)
	}
	if err := h.Unmount(); err != nil {
		t.Fatal(err)
	}
	if mounted(t, mnt) {
		t.Errorf("%s still mounted after Unmount", mnt)
	}
	if err := h.Unmount(); err != nil {
		t.Errorf("a second Unmount: %v, want nothing done", err)
	}
	if _, err := h.Crash(); err == nil {
		t.Error("Crash after Unmount: no error")
	}
}

// When the process that asked for the mount dies, its end of the helper's input closes:
// the helper unmounts and exits, leaving no mount behind.
func TestTheHelperUnmountsWhenItsParentIsGone(t *testing.T) {
	h, mnt := startHelper(t)
	h.mu.Lock() // no Unmount from the cleanup: the helper is gone
	h.closed = true
	h.mu.Unlock()
	if err := h.in.Close(); err != nil { // as the kernel does for a parent that died
		t.Fatal(err)
	}
	if err := h.cmd.Wait(); err != nil {
		t.Errorf("the helper ended with %v, want a clean exit", err)
	}
	if mounted(t, mnt) {
		t.Errorf("%s still mounted after the helper's input closed", mnt)
	}
}

// An order the helper does not know is answered with an error naming it; the mount stays.
func TestTheHelperRefusesAnUnknownOrder(t *testing.T) {
	h, mnt := startHelper(t)
	h.mu.Lock()
	_, err := h.ask("format")
	h.mu.Unlock()
	if err == nil || !strings.Contains(err.Error(), `"format"`) {
		t.Errorf("order format: error %v, want one naming it", err)
	}
	if !mounted(t, mnt) {
		t.Errorf("%s not mounted after a refused order", mnt)
	}
}

// A mount that fails is reported by the helper, and Mount returns its error.
func TestAMountThatFailsReturnsTheHelpersError(t *testing.T) {
	needsFUSEHere(t)
	dir := t.TempDir()
	if _, err := MountInHelper(dir, filepath.Join(dir, "inside")); err == nil || !strings.Contains(err.Error(), "must not contain") {
		t.Errorf("a mount point inside its backing: error %v, want crashfs's refusal", err)
	}
}

// A helper program named by the environment must be one; the error names the variable.
func TestAHelperProgramThatIsNoneIsRefused(t *testing.T) {
	t.Setenv(reexec.Env, filepath.Join(t.TempDir(), "missing"))
	if _, err := MountInHelper(t.TempDir(), t.TempDir()); err == nil || !strings.Contains(err.Error(), reexec.Env) {
		t.Errorf("error %v, want one naming %s", err, reexec.Env)
	}
}
