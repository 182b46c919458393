package bench_test

import (
	"os"
	"testing"

	"github.com/lockbench/lockbench/locks"
)

func TestMain(m *testing.M) {
	locks.SilenceClientLogs()
	os.Exit(m.Run())
}
