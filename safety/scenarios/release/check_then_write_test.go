package release

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// TestCheckThenWriteLock: a check that said valid before the lease ended was wrong at
// the write, every judged time: the unfenced resource takes the stale write, the fenced
// one refuses it. A writes only once B wrote (write=after-expiry), and its check lands
// 500 ms before the end of a 1 s lease: only a stall of half a second could make the
// check say "gone" (fault not produced), so the machine's load does not decide a trial.
func TestCheckThenWriteLock(t *testing.T) {
	t.Parallel()
	labtest.RunScenario(t, "check-then-write-lock", 3, lab.Params{"ttl": "1s", "land": "500ms", "write": "after-expiry"})
}

// The rate form (write=after-gap) is the scenario's default; a bad write mode is refused.
func TestCheckThenWriteRefusesAnUnknownWriteMode(t *testing.T) {
	t.Parallel()
	var write lab.Param
	for _, p := range labtest.Params(t, "check-then-write-lock") {
		if p.Name == "write" {
			write = p
		}
	}
	if write.Default != writeAfterGap {
		t.Fatalf("write defaults to %q, want %q", write.Default, writeAfterGap)
	}
	if _, why := write.Parse("sometime"); why == "" {
		t.Error("write=sometime taken")
	}
}

// check-then-write-lock runs on one Redis master whatever the strategy is called, by
// what its kind declares: single by default, any store whose kind answers Redis and
// numbers grants on one master (wait, sentinel), and no Redlock nor consensus store.
func TestCheckThenWriteTakesOneRedisMasterByCapability(t *testing.T) {
	t.Parallel()
	strategies := labtest.Params(t, "check-then-write-lock")[0]
	if strategies.Name != "strategies" || strategies.Default != "single" {
		t.Fatalf("first param is %s=%s, want strategies=single", strategies.Name, strategies.Default)
	}
	for _, ok := range []string{"single", "wait", "sentinel"} {
		if _, want := strategies.Parse(ok); want != "" {
			t.Errorf("%s refused: want %s", ok, want)
		}
	}
	for _, bad := range []string{"redlock", "zookeeper", "cluster", "single,wait"} {
		if _, want := strategies.Parse(bad); want == "" {
			t.Errorf("%s taken", bad)
		}
	}
}
