package forgetful

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

func needsFUSE(t *testing.T) {
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

// The mount is served by a process of its own running the helper program (make test
// names a build without the race detector; else this test binary), not by this one.
func TestTheDiskIsServedByAHelperProcess(t *testing.T) {
	needsFUSE(t)
	dir := t.TempDir()
	disk, err := Mount(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = disk.Unmount() })
	want, err := reexec.Executable()
	if err != nil {
		t.Fatal(err)
	}
	want, _ = filepath.EvalSymlinks(want)
	pid := disk.srv.pid()
	if pid == os.Getpid() {
		t.Fatalf("the mount is served by this process (pid %d)", pid)
	}
	if exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe"); err != nil || exe != want {
		t.Errorf("the helper runs %q (%v), want %s", exe, err, want)
	}
	if !mounted(t, DataDir(dir)) {
		t.Fatalf("no mount at %s", DataDir(dir))
	}
	if err := disk.Unmount(); err != nil {
		t.Fatal(err)
	}
	if mounted(t, DataDir(dir)) {
		t.Errorf("%s still mounted after Unmount", DataDir(dir))
	}
	if err := disk.Unmount(); err != nil {
		t.Errorf("a second Unmount: %v, want nothing done", err)
	}
	if err := disk.Crash(); err == nil {
		t.Error("Crash after Unmount: no error")
	}
}

// When the process that asked for the mount dies, its end of the helper's input closes:
// the helper unmounts and exits, leaving no mount behind.
func TestTheHelperUnmountsWhenItsParentIsGone(t *testing.T) {
	needsFUSE(t)
	dir := t.TempDir()
	disk, err := Mount(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := disk.srv.in.Close(); err != nil { // as the kernel does for a dead parent
		t.Fatal(err)
	}
	if err := disk.srv.cmd.Wait(); err != nil {
		t.Errorf("the helper ended with %v, want a clean exit", err)
	}
	if mounted(t, DataDir(dir)) {
		t.Errorf("%s still mounted after the helper's input closed", DataDir(dir))
	}
}

// An order the helper does not know is answered with an error naming it; the mount stays.
func TestTheHelperRefusesAnUnknownOrder(t *testing.T) {
	needsFUSE(t)
	dir := t.TempDir()
	disk, err := Mount(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = disk.Unmount() })
	disk.srv.mu.Lock()
	_, err = disk.srv.ask("format")
	disk.srv.mu.Unlock()
	if err == nil || !strings.Contains(err.Error(), `"format"`) {
		t.Errorf("order format: error %v, want one naming it", err)
	}
	if !mounted(t, DataDir(dir)) {
		t.Errorf("%s not mounted after a refused order", DataDir(dir))
	}
}

// A mount that fails is reported by the helper, and Mount returns its error.
func TestAMountThatFailsReturnsTheHelpersError(t *testing.T) {
	needsFUSE(t)
	dir := t.TempDir()
	if _, err := startServer(dir, filepath.Join(dir, "inside")); err == nil || !strings.Contains(err.Error(), "must not contain") {
		t.Errorf("a mount point inside its backing: error %v, want crashfs's refusal", err)
	}
}

// A helper program named by the environment must be one; the error names the variable.
func TestAHelperProgramThatIsNoneIsRefused(t *testing.T) {
	t.Setenv(reexec.Env, filepath.Join(t.TempDir(), "missing"))
	if _, err := Mount(t.TempDir()); err == nil || !strings.Contains(err.Error(), reexec.Env) {
		t.Errorf("error %v, want one naming %s", err, reexec.Env)
	}
}
