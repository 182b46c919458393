package sweep

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// flavoured is spec on the config's server flavour (topologies.OnFlavour).
func (cfg Config) flavoured(spec backend.Spec) backend.Spec {
	return topologies.OnFlavour(spec, cfg.Server)
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
