package adr_test

// Every store registers, as cmd/lockbench has them: the options' keyed failovers and
// the safety order are those the stores declare, and the fixtures' cells synth's.
import _ "github.com/lockbench/lockbench/backends/all"
