package sweep

import "fmt"

// keyPrefix separates cell index's keys from other cells' and, with a run id, from
// other runs' on a shared server; every worker of a run derives the same one.
func (r *Runner) keyPrefix(index int) string {
	if r.Config.RunID != "" {
		return fmt.Sprintf("lockbench:%s:%d:", r.Config.RunID, index)
	}
	return fmt.Sprintf("lockbench:%d:", index)
}
