package bench_test

import (
	"os"
	"testing"

	"github.com/lockbench/lockbench/backends/redis/redislock"
)

func TestMain(m *testing.M) {
	redislock.SilenceClientLogs()
	os.Exit(m.Run())
}
