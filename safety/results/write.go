package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
)

// Results is the content of results.json: one report per scenario run.
type Results struct {
	// Complete is false while the run goes on (the file is rewritten after every trial)
	// and after an interruption: then the last report holds the trials that finished.
	Complete bool `json:"complete"`
	// Command and Environment are what a --resume checks before it carries the run on.
	Command     *Command                `json:"command,omitempty"`
	Environment *resultsdir.Environment `json:"environment,omitempty"`
	// Resumed lists when the run was carried on with --resume.
	Resumed []time.Time `json:"resumed,omitempty"`
	Reports []*Report   `json:"reports"`
	// MergedFrom lists the workers' folders `lockbench merge` added up into this one.
	MergedFrom []string `json:"merged_from,omitempty"`
	// Figures were drawn from the reports (by plots/) before the results were written.
	Figures []FigureRef `json:"figures,omitempty"`
}

// FigureRef names a figure's files relative to the results folder, PNG first.
type FigureRef struct {
	Name    string   `json:"name"`
	Files   []string `json:"files"`
	Caption string   `json:"caption"`
}

// Markdown is results.md: every report's table, then the figures.
func (res Results) Markdown() string {
	var md strings.Builder
	md.WriteString("# lockbench safety results\n\n")
	if !res.Complete {
		md.WriteString(res.unfinished())
	}
	if len(res.MergedFrom) > 0 {
		fmt.Fprintf(&md, "Merged by `lockbench merge` from %d workers' folders (%s): every trial as its worker recorded "+
			"it, the tallies and intervals recomputed from them all.\n\n", len(res.MergedFrom),
			strings.Join(res.MergedFrom, ", "))
	}
	md.WriteString("A trial is judged only once it proved its fault happened; the others are counted as fault not " +
		"produced, not granted, or errors by kind. Intervals are 95% Wilson intervals over the judged trials. A forced " +
		"interleaving (a variant a claim checks as always or never) is a demonstration: its row gives the count, with no " +
		"interval.\n\n")
	md.WriteString(ClaimsTable(res.Reports))
	for _, r := range res.Reports {
		md.WriteString(r.Table())
		md.WriteString("\n")
	}
	if len(res.Figures) > 0 {
		md.WriteString("## Figures\n")
	}
	for _, f := range res.Figures {
		if len(f.Files) == 0 {
			continue
		}
		fmt.Fprintf(&md, "\n![%s](%s)\n\n%s", f.Name, f.Files[0], f.Caption)
		for _, other := range f.Files[1:] {
			fmt.Fprintf(&md, " [%s](%s)", strings.ToUpper(strings.TrimPrefix(filepath.Ext(other), ".")), other)
		}
		md.WriteString("\n")
	}
	return md.String()
}

// Write writes results.json and results.md into dir, each through a temp file and a
// rename, so that a reader never sees half a file.
func Write(dir string, res Results) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	js, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	if err := resultsdir.WriteFileAtomic(filepath.Join(dir, "results.json"), append(js, '\n')); err != nil {
		return err
	}
	return resultsdir.WriteFileAtomic(filepath.Join(dir, "results.md"), []byte(res.Markdown()))
}

// Read reads results.json from dir.
func Read(dir string) (Results, error) {
	var res Results
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		return res, err
	}
	if err := json.Unmarshal(b, &res); err != nil {
		return res, fmt.Errorf("%s: %w", filepath.Join(dir, "results.json"), err)
	}
	return res, nil
}
