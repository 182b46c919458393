package consensus

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// etcd-leader-kill runs on any store whose kind declares consensus and that can fail
// over, by that declaration: a Redis strategy is refused by name of what fits, a
// consensus strategy it was never told of (etcd without fsync) is taken.
func TestLeaderKillTakesEveryConsensusStoreAndNoOther(t *testing.T) {
	t.Parallel()
	strategies := labtest.Params(t, "etcd-leader-kill")[0]
	if strategies.Name != "strategies" {
		t.Fatalf("first param is %s", strategies.Name)
	}
	if _, want := strategies.Parse("sentinel"); !strings.Contains(want, "zookeeper-3") || strings.Contains(want, "sentinel") {
		t.Errorf("sentinel: want %q", want)
	}
	for _, s := range []string{strategies.Default, "etcd-3-unsafe-nofsync", "zookeeper"} {
		if _, want := strategies.Parse(s); want != "" {
			t.Errorf("%s refused: want %s", s, want)
		}
	}
}
