package sentinelrig_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	_ "github.com/lockbench/lockbench/backends/redis/redisstore"          // the kinds the rig is asked about:
	_ "github.com/lockbench/lockbench/backends/rediscluster/clusterstore" // Redis's and Redis Cluster's
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
)

// The rig takes a store by what its kind declares: sentinel fits, a store without
// sentinels promoting a replica over Redis does not, whatever it can do besides.
func TestTheRigFitsByCapability(t *testing.T) {
	for name, want := range map[string]bool{"sentinel": true, "single": false, "wait": false, "redlock": false, "cluster": false} {
		st, err := lab.StoreFor(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := sentinelrig.Fits(st); got != want {
			t.Errorf("Fits(%s) = %v, want %v", name, got, want)
		}
	}
}

// With no strategy named, the rig runs the first registered one that fits: sentinel,
// as it always did, and every strategy that fits declares the rig's capabilities.
func TestTheRigsDefaultIsTheFirstStrategyThatFits(t *testing.T) {
	got, err := sentinelrig.DefaultStrategy()
	if err != nil || got != "sentinel" {
		t.Fatalf("DefaultStrategy() = %q, %v; want sentinel", got, err)
	}
	for _, name := range lab.StrategiesWhere(sentinelrig.Fits) {
		st, _ := linked.Catalog().StrategyOf(name)
		if !backend.KindIs[backend.Failover](linked.Catalog(), st.Kind()) {
			t.Errorf("%s fits the rig, but its kind %s declares no failover", name, st.Kind())
		}
	}
}

// A strategy the rig cannot run is refused before any deployment starts.
func TestTheRigRefusesAStoreThatDoesNotFit(t *testing.T) {
	env := &lab.Env{Trials: 1}
	_, err := sentinelrig.NewRun(env, sentinelrig.Config{Strategy: "redlock", ReformTimeout: time.Second})
	if err == nil || !strings.Contains(err.Error(), "strategy redlock") {
		t.Errorf("NewRun(redlock) = %v, want it refused by name", err)
	}
}
