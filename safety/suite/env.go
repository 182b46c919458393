package suite

import (
	"fmt"
	"io"

	"github.com/lockbench/lockbench/safety"
	"github.com/lockbench/lockbench/safety/results"
)

// NewEnv is what every scenario of cmd runs with: its trials, seed and params, the
// folder's resumed reports, servers on cmd's provider (each kind's own when none was
// given), and a log line per event on logTo.
func NewEnv(cmd results.Command, folder *Folder, logTo io.Writer) *safety.Env {
	return &safety.Env{
		Trials:     cmd.Trials,
		UntilWidth: cmd.UntilWidth,
		Seed:       cmd.Seed,
		Params:     safety.Params(cmd.Params),
		OutDir:     folder.dir,
		Resume:     folder.resumed,
		Start:      startOn(cmd.Provider),
		Logf:       func(format string, a ...any) { fmt.Fprintf(logTo, format+"\n", a...) },
	}
}
