package synth_test

// Every store registers, as cmd/lockbench has them: the matrix is the synthetic
// costs the stores declare.
import _ "github.com/lockbench/lockbench/backends/all"
