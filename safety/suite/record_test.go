package suite

import (
	"reflect"
	"testing"

	"github.com/lockbench/lockbench/safety/results"
)

// TestFlagsOfARecordedAllIsAll: a command of several scenarios was --all (or
// --scenario all), and resumes as all; one scenario resumes by name, with its params.
func TestFlagsOfARecordedAllIsAll(t *testing.T) {
	cmd := results.Command{Scenarios: []string{"setnx-expire", "unsafe-release"}, Trials: 20, Seed: 1, Provider: "process", Server: "valkey", RedisImage: "redis:7"}
	want := map[string][]string{"scenario": {"all"}, "trials": {"20"}, "seed": {"1"}, "provider": {"process"}, "server": {"valkey"}, "redis-image": {"redis:7"}}
	if got := FlagsOf(cmd); !reflect.DeepEqual(got, want) {
		t.Errorf("flags of %+v:\n%v\nwant\n%v", cmd, got, want)
	}
	one := results.Command{Scenarios: []string{"failover-loss"}, Trials: 3, Seed: 2, Params: map[string]string{"modes": "none,zombie", "lag": "5ms"}}
	wantOne := map[string][]string{"scenario": {"failover-loss"}, "trials": {"3"}, "seed": {"2"}, "param": {"lag=5ms", "modes=none,zombie"}}
	if got := FlagsOf(one); !reflect.DeepEqual(got, wantOne) {
		t.Errorf("flags of %+v:\n%v\nwant\n%v", one, got, wantOne)
	}
}

// TestFlagsOfAWorkerKeepItsShare: a worker's folder resumes as the same worker, so
// that the trials it carries on with are still its share.
func TestFlagsOfAWorkerKeepItsShare(t *testing.T) {
	cmd := results.Command{Scenarios: []string{"setnx-expire"}, Trials: 9, Seed: 4, Worker: &results.Worker{Index: 2, Of: 3}}
	want := map[string][]string{"scenario": {"setnx-expire"}, "trials": {"9"}, "seed": {"4"}, "worker": {"2/3"}}
	if got := FlagsOf(cmd); !reflect.DeepEqual(got, want) {
		t.Errorf("flags of %+v:\n%v\nwant\n%v", cmd, got, want)
	}
}
