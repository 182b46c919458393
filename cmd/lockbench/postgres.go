package main

// The PostgreSQL strategies (pg-advisory, pg-for-update) and their postgres-process
// provider register on import: `lockbench run` accepts them.
import _ "github.com/lockbench/lockbench/locks/pglock"
