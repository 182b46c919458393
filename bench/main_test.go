package bench_test

import (
	"os"
	"testing"

	"github.com/lockbench/lockbench/redisconn"
)

func TestMain(m *testing.M) {
	redisconn.SilenceClientLogs()
	os.Exit(m.Run())
}
