package release

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab/labtest"
)

func TestSetNXExpire(t *testing.T)   { t.Parallel(); labtest.RunScenario(t, "setnx-expire", 2, nil) }
func TestUnsafeRelease(t *testing.T) { t.Parallel(); labtest.RunScenario(t, "unsafe-release", 1, nil) }
