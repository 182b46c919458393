package suite

import (
	"fmt"
	"maps"
	"slices"

	"github.com/lockbench/lockbench/safety/results"
)

// keptReportDiffers says how a report found in a folder being resumed is not one the
// command would have written: another scenario list, seed, trial count, params or
// binary. A report copied in from another run (a scenario run beside --all, say) must
// not pass as this run's. folderBinary is "" for folders written before reports were
// stamped: their reports are unstamped too, and only the rest is checked.
func keptReportDiffers(r *results.Report, cmd results.Command, folderBinary string) error {
	switch {
	case !slices.Contains(cmd.Scenarios, r.Scenario):
		return fmt.Errorf("a report of scenario %s, which the command does not run (%v)", r.Scenario, cmd.Scenarios)
	case r.Seed != cmd.Seed:
		return fmt.Errorf("seed %d there, %d in the command", r.Seed, cmd.Seed)
	case r.TrialsPerVariant != cmd.Trials:
		return fmt.Errorf("%d trials per variant there, %d in the command", r.TrialsPerVariant, cmd.Trials)
	case !maps.Equal(r.Params, cmd.Params): // nil and empty are equal
		return fmt.Errorf("params %v there, %v in the command", r.Params, cmd.Params)
	case folderBinary != "" && r.Binary != folderBinary:
		if r.Binary == "" {
			return fmt.Errorf("the report carries no binary stamp, so this folder's run did not write it")
		}
		return fmt.Errorf("written by binary %s, the folder's run is %s", r.Binary, folderBinary)
	}
	return nil
}
