// Package linked holds the catalog of the stores linked into this program: each
// store's package registers its descriptor from init, so a program has every store it
// imports (cmd/lockbench imports backends/all). Only code that runs stores reads it;
// statistics, figures and reports take a catalog as an argument.
package linked

import "github.com/lockbench/lockbench/backend"

// stores is filled by the stores' init functions before main runs.
var stores = backend.NewCatalog()

// Register adds a store's descriptor to the program's catalog; a store, kind or
// strategy registered twice is a programming error and panics.
func Register(d backend.Descriptor) {
	if err := stores.Add(d); err != nil {
		panic(err)
	}
}

// Catalog is the program's catalog: every store linked into it.
func Catalog() *backend.Catalog { return stores }
