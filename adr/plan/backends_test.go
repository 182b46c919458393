package plan_test

// Every store registers, as cmd/lockbench has them: the keyed failovers the plan runs
// are those the stores declare, and the fixtures' cells synth's.
import _ "github.com/lockbench/lockbench/backends/all"
