package campaign

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/capacity"
)

var p99 = capacity.Budget{Metric: "acquire", Percentile: "p99", Limit: 5 * time.Millisecond}

// Strategies share conditions: two strategies at two client counts are two searches each.
func TestCheckSearchesEachConditionOnce(t *testing.T) {
	cfg := capacity.DefaultConfig(linked.Catalog())
	cfg.Strategies, cfg.Clients = []string{"single", "redlock"}, []int{8, 16}
	p, err := Check(cfg, p99)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Conditions) != 2 || p.Params.Precision != 0.05 || p.Params.Budget != p99 {
		t.Errorf("plan: %d conditions, precision %v, budget %+v", len(p.Conditions), p.Params.Precision, p.Params.Budget)
	}
}

func TestCheckNamesTheFirstWrongField(t *testing.T) {
	for _, c := range []struct {
		change func(*capacity.Config)
		want   string
	}{
		{func(c *capacity.Config) { c.Strategies = []string{"cas-version"} }, "cas-version cannot run open loop"},
		{func(c *capacity.Config) { c.Strategies = nil }, "strategies: none given"},
		{func(c *capacity.Config) { c.MinDuration = "0s" }, "min-duration"},
		{func(c *capacity.Config) { c.Start = 0 }, "start rate"},
		{func(c *capacity.Config) { c.Precision = "100%" }, "precision"},
	} {
		cfg := capacity.DefaultConfig(linked.Catalog())
		c.change(&cfg)
		if _, err := Check(cfg, p99); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error naming %q", cfg, err, c.want)
		}
	}
}

// The default campaign searches the cluster's strategies beside the others, and they
// pass the checks a campaign makes of every strategy.
func TestTheDefaultCampaignSearchesTheCluster(t *testing.T) {
	cfg := capacity.DefaultConfig(linked.Catalog())
	p, err := Check(cfg, p99)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cluster", "cluster-wait"} {
		if !slices.Contains(p.Config.Strategies, want) || !slices.Contains(p.Sweep.Sweeps[0].Strategies, want) {
			t.Errorf("the default campaign does not search %s: %v", want, p.Sweep.Sweeps[0].Strategies)
		}
	}
}
