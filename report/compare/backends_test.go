package compare_test

// Every store registers, as cmd/lockbench has them: synth's matrix is the synthetic
// costs the stores declare, and the safety order theirs.
import _ "github.com/lockbench/lockbench/backends/all"
