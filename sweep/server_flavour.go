package sweep

import (
	"context"
	"slices"
	"time"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// flavoured is spec on the config's server flavour where its kind's store runs it;
// other stores' kinds, and every kind when the config names none, keep the strategy's own.
func (cfg Config) flavoured(spec topologies.Spec) topologies.Spec {
	if sh, err := linked.Catalog().Lookup(spec.Kind); err == nil && cfg.Server != "" && slices.Contains(sh.Flavours(), cfg.Server) {
		spec.Server = cfg.Server
	}
	return spec
}

// runningServer is what the first master says it runs ("valkey 8.0.1"), for the
// record of a topology of Redis's kinds; empty for other stores or when it cannot tell.
func runningServer(ctx context.Context, topo topologies.Topology) string {
	sh, err := linked.Catalog().Lookup(topo.Spec().Kind)
	if err != nil || len(sh.Flavours()) == 0 || len(topo.Masters()) == 0 {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	server, err := redisadmin.RunningServer(ctx, topo.Masters()[0].Addr())
	if err != nil {
		return ""
	}
	return server
}
