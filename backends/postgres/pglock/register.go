package pglock

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/backend"
	_ "github.com/lockbench/lockbench/backends/postgres/pgtopo" // the provider that starts PostgreSQL
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/pooloptions"
	"github.com/lockbench/lockbench/topologies"
)

func init() {
	spec := backend.Spec{Kind: topologies.Postgres}
	for name, connect := range map[string]func(context.Context, string, pooloptions.Options) (*Locker, error){
		Advisory:  NewAdvisory,
		ForUpdate: NewForUpdate,
	} {
		locks.Register(name, spec, func(ctx context.Context, topo topologies.Topology,
			o locks.Options) (locks.Locker, error) {
			server, ok := topo.(interface{ DSN() string })
			if !ok {
				return nil, fmt.Errorf("%s: topology from provider %s has no DSN", name, topo.Provider())
			}
			return connect(ctx, server.DSN(), pooloptions.Options{PoolSize: o.PoolSize, Timeout: o.Timeout, Dialer: o.Dialer})
		})
	}
}
