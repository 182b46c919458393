package stats_test

// Every store registers, as cmd/lockbench has them: the safety order is the one the
// stores declare.
import _ "github.com/lockbench/lockbench/backends/all"
