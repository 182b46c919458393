package suite

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/lockbench/lockbench/internal/usage"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/results"
)

// ReadRecord reads the results.json of the interrupted run in dir, or says why dir is
// no safety run to resume.
func ReadRecord(dir string) (results.Results, error) {
	if err := resultsdir.CheckResumable(dir); err != nil {
		return results.Results{}, err
	}
	res, err := results.Read(dir)
	if errors.Is(err, os.ErrNotExist) {
		return res, usage.Errorf("--resume %s: not the folder of a `lockbench safety` run: it holds no results.json", dir)
	}
	if err != nil {
		return res, usage.Errorf("--resume %s: %v", dir, err)
	}
	if res.Command == nil || res.Environment == nil {
		return res, usage.Errorf("--resume %s: %s records no command: not a `lockbench safety` folder, or written by a "+
			"lockbench that cannot resume it", dir, filepath.Join(dir, "results.json"))
	}
	return res, nil
}

// FlagsOf is the command line a recorded command was run with: one scenario by name,
// more as all.
func FlagsOf(cmd results.Command) map[string][]string {
	flags := map[string][]string{
		"trials": {strconv.Itoa(cmd.Trials)},
		"seed":   {strconv.FormatInt(cmd.Seed, 10)},
	}
	switch len(cmd.Scenarios) {
	case 0:
	case 1:
		flags["scenario"] = cmd.Scenarios
	default:
		flags["scenario"] = []string{"all"} // a different list of all is refused by name
	}
	for _, name := range slices.Sorted(maps.Keys(cmd.Params)) {
		flags["param"] = append(flags["param"], name+"="+cmd.Params[name])
	}
	if cmd.Provider != "" {
		flags["provider"] = []string{cmd.Provider}
	}
	if cmd.Server != "" {
		flags["server"] = []string{cmd.Server}
	}
	if cmd.RedisImage != "" {
		flags["redis-image"] = []string{cmd.RedisImage}
	}
	if cmd.Worker != nil {
		flags["worker"] = []string{fmt.Sprintf("%d/%d", cmd.Worker.Index, cmd.Worker.Of)}
	}
	if cmd.UntilWidth > 0 {
		flags["until-width"] = []string{strconv.FormatFloat(cmd.UntilWidth, 'g', -1, 64)}
	}
	return flags
}
