package safety

import _ "github.com/lockbench/lockbench/safety/scenarios/all" // the scenarios moved out of this package, for the tests that range over them all
