package reexec

import (
	"os"
	"strings"
	"testing"
)

// A program re-executed for a role it does not serve would run its own main: the
// helper is refused unless the program serves the role or a build is named.
func TestExecutableForRefusesARoleThisProgramDoesNotServe(t *testing.T) {
	t.Setenv(Env, "")
	if _, err := ExecutableFor("unserved role"); err == nil || !strings.Contains(err.Error(), Env) {
		t.Errorf("unserved role: %v, want an error naming %s", err, Env)
	}
	Serves("served role")
	self, _ := os.Executable()
	if exe, err := ExecutableFor("served role"); err != nil || exe != self {
		t.Errorf("served role: %q, %v; want this program %q", exe, err, self)
	}
	t.Setenv(Env, self)
	if exe, err := ExecutableFor("unserved role"); err != nil || exe != self {
		t.Errorf("named build: %q, %v; want it", exe, err)
	}
}
