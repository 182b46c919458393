package compare

import "github.com/lockbench/lockbench/backend/backendtest"

// fixtureStores are the shipped stores' metadata without the stores: the tests link none.
var fixtureStores = backendtest.Catalog()

// fixtureOptions are DefaultOptions over the fixture's stores.
func fixtureOptions() Options {
	o := DefaultOptions()
	o.Stores = fixtureStores
	return o
}
