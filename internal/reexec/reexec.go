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
