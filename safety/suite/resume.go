package suite

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/lockbench/lockbench/internal/usage"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/resultsdir/samerun"
	"github.com/lockbench/lockbench/safety/results"
)

// Resume checks that res, the interrupted run read from dir, is the run cmd asks for,
// with this software (env): a different run is a usage error naming the first
// difference, and nothing in dir changes. A complete run has nothing left: nil folder,
// nil error.
func Resume(stdout io.Writer, dir string, res results.Results, cmd results.Command,
	env resultsdir.Environment) (*Folder, error) {
	recorded := filepath.Join(dir, "results.json")
	if d, ok := samerun.First(cmd, *res.Command); ok {
		return nil, usage.Errorf("--resume %s: not the run recorded in %s: %s", dir, recorded, d)
	}
	if d, ok := resultsdir.SoftwareDifference(env, *res.Environment); ok {
		return nil, usage.Errorf("--resume %s: %s was measured with other software: %s", dir, recorded, d)
	}
	if res.Complete {
		fmt.Fprintf(stdout, "%s holds a complete run (%d scenarios): nothing to resume\n", dir, len(res.Reports))
		return nil, nil
	}
	for _, r := range res.Reports {
		if err := keptReportDiffers(r, cmd, res.Environment.Binary); err != nil {
			return nil, usage.Errorf("--resume %s: %s in %s: %v", dir, r.Scenario, recorded, err)
		}
	}
	f := &Folder{dir: dir, binary: env.Binary, resumed: map[string]*results.Report{}}
	for _, r := range res.Reports {
		f.resumed[r.Scenario] = r
	}
	f.res = results.Results{Command: res.Command, Environment: res.Environment,
		Resumed: append(res.Resumed, time.Now().UTC())}
	return f, nil
}
