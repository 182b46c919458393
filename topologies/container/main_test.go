package container_test

import (
	"fmt"
	"os"
	"testing"

	. "github.com/lockbench/lockbench/topologies/container"
)

// TestMain fails the run when anything it created remains, passed tests or not; the
// image built from the host is kept on purpose.
func TestMain(m *testing.M) {
	code := m.Run()
	if left := Owned(); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the run left %v behind\n", left)
		code = 1
	}
	os.Exit(code)
}
