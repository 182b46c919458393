package consensus

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

func TestFenceRegression(t *testing.T) {
	t.Parallel()
	labtest.RunScenario(t, "fence-regression", 1, nil)
}

func TestEtcdLeaderKill(t *testing.T) {
	t.Parallel()
	labtest.RunScenario(t, "etcd-leader-kill", 1, lab.Params{"strategies": "etcd-3,etcd"})
}
