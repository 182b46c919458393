package sweep

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/resultsdir/samerun"
)

// SaveConfig writes cfg into dir as config.yaml: the matrix a later --resume must ask
// for again.
func SaveConfig(dir string, cfg Config) error {
	cfg.Wait = cfg.WaitMode() // named, so that a resume never reads another default
	data, err := cfg.YAML()
	if err != nil {
		return err
	}
	return resultsdir.WriteFileAtomic(filepath.Join(dir, resultsdir.ConfigFile), data)
}

// ReadConfig reads the config.yaml a run saved in dir.
func ReadConfig(dir string) (Config, error) {
	path := filepath.Join(dir, resultsdir.ConfigFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Config{}, fmt.Errorf("no %s: the run was written by a lockbench that cannot resume it", path)
	}
	if err != nil {
		return Config{}, err
	}
	cfg, err := ParseYAML(data)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	if cfg.Wait == "" {
		cfg.Wait = recordedWait
	}
	return cfg, nil
}

// Resume reads the run an interrupted `lockbench run` left in dir and checks that it
// is the run cfg asks for, measured with the same software as env: otherwise the
// error names the first difference. It writes nothing; the runner then measures only
// the cells the run does not have.
func Resume(dir string, cfg Config, env resultsdir.Environment) (*resultsdir.Run, error) {
	run, err := resultsdir.ReadRun(dir)
	if err != nil {
		return nil, err
	}
	saved, err := ReadConfig(dir)
	if err != nil {
		return nil, err
	}
	// Through YAML and back, as the saved one came: both read the same way.
	cfg.Wait = cfg.WaitMode()
	asked, err := cfg.YAML()
	if err != nil {
		return nil, err
	}
	if cfg, err = ParseYAML(asked); err != nil {
		return nil, err
	}
	if d, ok := samerun.First(cfg, saved); ok {
		return nil, fmt.Errorf("not the run recorded in %s: %s", filepath.Join(dir, resultsdir.ConfigFile), d)
	}
	if d, ok := resultsdir.SoftwareDifference(env, run.Environment); ok {
		return nil, fmt.Errorf("%s was measured with other software: %s", filepath.Join(dir, resultsdir.JSONFile), d)
	}
	if run.Environment.Topologies == nil {
		run.Environment.Topologies = map[string]string{}
	}
	return run, nil
}

// MarkResumed records that run goes on now, after an interruption.
func MarkResumed(run *resultsdir.Run) {
	run.Complete = false
	run.Resumed = append(run.Resumed, time.Now().UTC())
}
