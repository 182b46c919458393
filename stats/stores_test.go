package stats

import "github.com/lockbench/lockbench/backend/backendtest"

// fixtureStores are the shipped stores' metadata without the stores: the tests link none.
var fixtureStores = backendtest.Catalog()
