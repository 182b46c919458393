// Package reexec names the program the suite runs its helper processes as (an etcd
// member, a crashfs server): this executable, which serves as a helper when its
// environment asks, or the build of the same tree that $LOCKBENCH_HELPER_EXE names.
package reexec

import (
	"fmt"
	"os"
)

// Env names a program to run helpers as instead of this one. make test gives its
// lockbench binary, built without the race detector: a raced test binary re-executed as
// a helper ran the helper raced too (etcd itself, or every FUSE request), at several
// times the CPU.
const Env = "LOCKBENCH_HELPER_EXE"

// Executable is the program a helper runs as: $LOCKBENCH_HELPER_EXE when set, else this
// executable.
func Executable() (string, error) {
	if exe := os.Getenv(Env); exe != "" {
		fi, err := os.Stat(exe)
		if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("%s=%s: not an executable file", Env, exe)
		}
		return exe, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find this executable to run helpers as: %w", err)
	}
	return exe, nil
}

// served are the helper roles this program takes on when re-executed as one.
var served = map[string]bool{}

// Serves records that this program runs as role when re-executed as one; from the init
// of the package that links the role's server.
func Serves(role string) { served[role] = true }

// ExecutableFor is the program a helper of role runs as: Executable's, when that is the
// build $LOCKBENCH_HELPER_EXE names (lockbench, which takes on every role) or this
// program serving role. Re-executed for a role it does not serve, a program would run
// its own main instead: that is an error naming what to do.
func ExecutableFor(role string) (string, error) {
	if os.Getenv(Env) == "" && !served[role] {
		return "", fmt.Errorf("this program does not link the server of an %s: name a lockbench build in %s "+
			"(make test does)", role, Env)
	}
	return Executable()
}
