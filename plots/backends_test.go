package plots_test

// Every store registers, as cmd/lockbench has them: a strategy's look is the
// position its store declares.
import _ "github.com/lockbench/lockbench/backends/all"
