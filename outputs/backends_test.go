package outputs_test

// Every store registers, as cmd/lockbench has them: the golden report is drawn from
// the stores' synthetic costs, ladder, order and looks.
import _ "github.com/lockbench/lockbench/backends/all"
