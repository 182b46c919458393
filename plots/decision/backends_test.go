package decision_test

// Every store registers, as cmd/lockbench has them: the figures' looks are the
// positions the stores declare.
import _ "github.com/lockbench/lockbench/backends/all"
