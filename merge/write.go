package merge

import (
	"os"
	"path/filepath"
	"sort"

	"github.com/lockbench/lockbench/resultsdir"
)

// write puts the merged folder in out: its histogram logs, config.yaml, then
// results.json last (a folder without it is no results folder).
func (m *mergedRun) write(out string) error {
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return refuse("--out %s: folder exists and is not empty; refusing to mix runs", out)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	rels := make([]string, 0, len(m.logs))
	for rel := range m.logs {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		if err := resultsdir.WriteHistogramLog(out, rel, m.logs[rel]); err != nil {
			return err
		}
	}
	if err := resultsdir.WriteFileAtomic(filepath.Join(out, resultsdir.ConfigFile), m.config); err != nil {
		return err
	}
	return resultsdir.WriteRun(out, m.run)
}
