package report_test

// Every store registers, as cmd/lockbench has them: the ladder, the safety order and
// the looks are those the stores declare.
import _ "github.com/lockbench/lockbench/backends/all"
