// Package pgstore registers PostgreSQL with lockbench: its kind, its strategies, its
// process provider, its containers and lost-updates' account rows, as one value.
package pgstore

import (
	"github.com/lockbench/lockbench/backends/postgres"
	"github.com/lockbench/lockbench/backends/postgres/pgcontainer"
	"github.com/lockbench/lockbench/backends/postgres/pglock"
	"github.com/lockbench/lockbench/backends/postgres/pgresource"
	"github.com/lockbench/lockbench/backends/postgres/pgtopo"
	"github.com/lockbench/lockbench/backends/store"
	"github.com/lockbench/lockbench/topologies"
)

func init() {
	store.Register(store.Store{
		Descriptor: postgres.Descriptor,
		Strategies: pglock.Strategies,
		Providers:  []store.Provider{store.OwnProcess(pgtopo.Process{}, topologies.Postgres, pgtopo.AutoChoice)},
		Containers: []store.Recipe{{Kind: topologies.Postgres, Start: pgcontainer.Start}},
		Accounts:   &store.Accounts{Open: pgresource.Open, Modes: pgresource.Modes()},
	})
}
