package scaling_test

// Every store registers, as cmd/lockbench has them: the figures' looks and order are
// those the stores declare.
import _ "github.com/lockbench/lockbench/backends/all"
