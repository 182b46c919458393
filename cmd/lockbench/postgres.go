package main

// The PostgreSQL strategies (pg-advisory, pg-for-update) and their postgres-process
// provider register on import: `lockbench run` accepts them. backends/postgres/pgresource gives
// `lockbench safety` the account rows lost-updates guards.
import (
	_ "github.com/lockbench/lockbench/backends/postgres/pglock"
	_ "github.com/lockbench/lockbench/backends/postgres/pgresource"
)
