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

// runningServer is what the first master says it runs ("valkey 8.0.1", and its
// append-only-file policy when it keeps one, "redis 7.0.15, appendfsync always"), for the
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
	// The policy as the server answers it: the price of a grant depends on it.
	if fsync, err := redisadmin.AppendFsync(ctx, topo.Masters()[0].Addr()); err == nil && fsync != "" {
		server += ", appendfsync " + fsync
	}
	return server
}
