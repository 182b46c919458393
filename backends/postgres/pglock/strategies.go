package pglock

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/pooloptions"
	"github.com/lockbench/lockbench/resources/pgaccount"
	"github.com/lockbench/lockbench/topologies"
)

// Strategies are PostgreSQL's: the two locks, which only the update workload measures,
// and the three lock-free ways package updates builds on the account rows. None is
// ranked on the safety order: they sort after the ranked, by name.
var Strategies = []locks.Strategy{
	{Strategy: backend.Strategy{Name: Advisory, Position: 16, Presets: []backend.Preset{backend.UpdateMatrix}},
		Spec: onServer, Build: serverLocker(Advisory, NewAdvisory)},
	{Strategy: backend.Strategy{Name: ForUpdate, Position: 17, Presets: []backend.Preset{backend.UpdateMatrix}},
		Spec: onServer, Build: serverLocker(ForUpdate, NewForUpdate)},
	{Strategy: backend.Strategy{Name: string(pgaccount.CASVersion), Position: 18}, Spec: onServer},
	{Strategy: backend.Strategy{Name: string(pgaccount.UniqueKey), Position: 19}, Spec: onServer},
	{Strategy: backend.Strategy{Name: string(pgaccount.Atomic), Position: 20}, Spec: onServer},
}

var onServer = backend.Spec{Kind: topologies.Postgres}

// serverLocker builds name's locker by connect, on the topology's server.
func serverLocker(name string,
	connect func(context.Context, string, pooloptions.Options) (*Locker, error)) locks.Builder {
	return func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
		server, ok := topo.(interface{ DSN() string })
		if !ok {
			return nil, fmt.Errorf("%s: topology from provider %s has no DSN", name, topo.Provider())
		}
		return connect(ctx, server.DSN(), pooloptions.Options{PoolSize: o.PoolSize, Timeout: o.Timeout, Dialer: o.Dialer})
	}
}
