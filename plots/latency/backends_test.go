package latency_test

// Every store registers, as cmd/lockbench has them: the figures' looks and order are
// those the stores declare, and synth's matrix their synthetic costs.
import _ "github.com/lockbench/lockbench/backends/all"
