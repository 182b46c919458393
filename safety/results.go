package safety

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Results is the content of results.json: one report per scenario run.
type Results struct {
	Reports []*Report `json:"reports"`
	// Figures were drawn from the reports (by plots/) before the results were written.
	Figures []FigureRef `json:"figures,omitempty"`
}

// FigureRef names a figure's files relative to the results folder, PNG first.
type FigureRef struct {
	Name    string   `json:"name"`
	Files   []string `json:"files"`
	Caption string   `json:"caption"`
}

// WriteResults writes results.json and results.md into dir, each through a temp
// file and a rename, so that a reader never sees half a file.
func WriteResults(dir string, res Results) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	js, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	var md strings.Builder
	md.WriteString("# lockbench safety results\n\n")
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
	if err := writeAtomic(filepath.Join(dir, "results.json"), append(js, '\n')); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, "results.md"), []byte(md.String()))
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
