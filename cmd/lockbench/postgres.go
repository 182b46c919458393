package main

// The PostgreSQL strategies (pg-advisory, pg-for-update) and their postgres-process
// provider register on import: `lockbench run` accepts them. safety/pgresource gives
// `lockbench safety` the account rows lost-updates guards.
import (
	_ "github.com/lockbench/lockbench/locks/pglock"
	_ "github.com/lockbench/lockbench/safety/pgresource"
)
