package memberfile

import (
	"fmt"
	"os"
)

// ExeEnv names a program to run members with instead of this one; it must be a build of
// the same tree (make test gives its lockbench binary, built without the race detector:
// a raced test binary re-executed as a member ran etcd itself raced, at several times
// the CPU).
const ExeEnv = "LOCKBENCH_ETCD_MEMBER_EXE"

// Executable is the program a member runs as: $LOCKBENCH_ETCD_MEMBER_EXE when set, else
// this executable (which runs a member when asked: etcdtopo's RunMemberIfAsked).
func Executable() (string, error) {
	if exe := os.Getenv(ExeEnv); exe != "" {
		fi, err := os.Stat(exe)
		if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("%s=%s: not an executable file", ExeEnv, exe)
		}
		return exe, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find this executable to run members: %w", err)
	}
	return exe, nil
}
