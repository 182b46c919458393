package sweep_test

// The tests start topologies: they register every store, as cmd/lockbench does
// (testenv starts what its caller registered); PostgreSQL holds the update cells' rows.
import (
	_ "github.com/lockbench/lockbench/backends/all"
	_ "github.com/lockbench/lockbench/backends/postgres/pglock"
)
