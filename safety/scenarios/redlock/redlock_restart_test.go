package redlock

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab/labtest"
)

func TestRedlockRestart(t *testing.T) {
	t.Parallel()
	labtest.RunScenario(t, "redlock-restart", 1, nil)
}
