package runs

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/sweep"
)

// Matrix is the matrix a fresh run starts from: the update matrix (quick or not), the
// quick one, a scaling preset or the default, with configFile merged in when given.
func Matrix(workload string, quick bool, preset, configFile string) (sweep.Config, error) {
	cfg := sweep.DefaultConfig()
	switch {
	case workload == sweep.WorkloadUpdate:
		cfg = sweep.UpdateConfig(quick)
	case quick:
		cfg = sweep.QuickConfig()
	case preset != "":
		p, ok := sweep.ScalingPresets()[preset]
		if !ok {
			return cfg, fmt.Errorf("--preset %q: want one of %s", preset, PresetNames())
		}
		cfg = p
	}
	if configFile == "" {
		return cfg, nil
	}
	data, err := os.ReadFile(configFile)
	if err != nil {
		return cfg, fmt.Errorf("config: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return cfg, fmt.Errorf("config %s: the file is empty (it would silently run the default matrix)", configFile)
	}
	fromFile, err := sweep.ParseYAML(data)
	if err != nil {
		return cfg, fmt.Errorf("config %s: %w", configFile, err)
	}
	if fromFile.Deployment != "" && !filepath.IsAbs(fromFile.Deployment) {
		fromFile.Deployment = filepath.Join(filepath.Dir(configFile), fromFile.Deployment)
	}
	return sweep.MergeFile(cfg, fromFile), nil
}

// PresetNames lists the scaling presets of `lockbench run --preset`, sorted.
func PresetNames() string {
	return strings.Join(slices.Sorted(maps.Keys(sweep.ScalingPresets())), ", ")
}
