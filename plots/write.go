package plots

import (
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"

	"github.com/lockbench/lockbench/resultsdir"
)

// File is one rendered figure File, relative to the results folder.
type File struct {
	Path string
	Data []byte
}

// Render encodes every figure as PNG then SVG, its legend in a column beside the
// data, and names the files in each: all in memory, so bad input writes nothing.
func Render(ds []Drawn) ([]Figure, []File, error) {
	var figs []Figure
	var files []File
	for _, d := range ds {
		// The legend goes beside the data, never over it: take it off the plot.
		legend := d.Plot.Legend
		d.Plot.Legend = plot.NewLegend()
		for _, format := range []string{"png", "svg"} {
			data, err := encode(d.Plot, legend, d.Series, format)
			if err != nil {
				return nil, nil, fmt.Errorf("figure %s: %w", d.Name, err)
			}
			rel := filepath.ToSlash(filepath.Join(Dir, d.Name+"."+format))
			d.Files = append(d.Files, rel)
			files = append(files, File{rel, data})
		}
		figs = append(figs, d.Figure)
	}
	return figs, files, nil
}

// Write renders the figures and writes them into dir/figures, each file atomically;
// no figure writes nothing and leaves no figures folder behind.
func Write(dir string, ds []Drawn) ([]Figure, error) {
	figs, files, err := Render(ds)
	if err != nil || len(files) == 0 {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, Dir), 0o755); err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := resultsdir.WriteFileAtomic(filepath.Join(dir, f.Path), f.Data); err != nil {
			return nil, err
		}
	}
	return figs, nil
}

// WriteOne writes one figure built outside a family's builders (a capacity search,
// a USL fit, the cost of safety).
func WriteOne(dir string, d Drawn) (Figure, error) {
	figs, err := Write(dir, []Drawn{d})
	if err != nil {
		return Figure{}, err
	}
	return figs[0], nil
}
