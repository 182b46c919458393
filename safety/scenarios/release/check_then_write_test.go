package release

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// TestCheckThenWriteLock: a check that said valid just before the lease ended was
// wrong at the write, every judged time: the unfenced resource takes the stale write,
// the fenced one refuses it. The checks land within the gap of the lease's end, so
// that nearly every trial is judged; on a loaded machine a check's own round trip can
// land after the end (fault not produced), so each variant gets 8 chances (about 0.1 s each).
func TestCheckThenWriteLock(t *testing.T) {
	labtest.RunScenario(t, "check-then-write-lock", 8, lab.Params{"land": "4ms"})
}

// check-then-write-lock runs on one Redis master whatever the strategy is called, by
// what its kind declares: single by default, any store whose kind answers Redis and
// numbers grants on one master (wait, sentinel), and no Redlock nor consensus store.
func TestCheckThenWriteTakesOneRedisMasterByCapability(t *testing.T) {
	strategies := checkThenWriteLock{}.Params()[0]
	if strategies.Name != "strategies" || strategies.Default != "single" {
		t.Fatalf("first param is %s=%s, want strategies=single", strategies.Name, strategies.Default)
	}
	for _, ok := range []string{"single", "wait", "sentinel"} {
		if _, want := strategies.Parse(ok); want != "" {
			t.Errorf("%s refused: want %s", ok, want)
		}
	}
	for _, bad := range []string{"redlock", "etcd", "cluster", "single,wait"} {
		if _, want := strategies.Parse(bad); want == "" {
			t.Errorf("%s taken", bad)
		}
	}
}
