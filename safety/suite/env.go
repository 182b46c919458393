package suite

import (
	"fmt"
	"io"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// NewEnv is what every scenario of cmd runs with: its trials, seed, params and worker share, the
// folder's resumed reports, servers on cmd's provider (each kind's own when none was
// given), and a log line per event on logTo.
func NewEnv(cmd results.Command, folder *Folder, logTo io.Writer) *lab.Env {
	var shard lab.Shard
	if cmd.Worker != nil {
		shard = lab.Shard{Index: cmd.Worker.Index, Of: cmd.Worker.Of}
	}
	return &lab.Env{
		Shard:      shard,
		Trials:     cmd.Trials,
		UntilWidth: cmd.UntilWidth,
		Seed:       cmd.Seed,
		Params:     lab.Params(cmd.Params),
		OutDir:     folder.dir,
		Resume:     folder.resumed,
		Start:      onFlavour(startOn(cmd.Provider), cmd.Server),
		Partitions: partitionsOn(cmd.Provider),
		Logf:       func(format string, a ...any) { fmt.Fprintf(logTo, format+"\n", a...) },
	}
}
