package campaign

// The sweeps a campaign plans ask each strategy's store what it can do (network
// profiles): the tests register every store, as cmd/lockbench does.
import _ "github.com/lockbench/lockbench/backends/all"
