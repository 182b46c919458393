package plots

import (
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"

	"github.com/lockbench/lockbench/resultsdir"
)

// file is one rendered figure file, relative to the results folder.
type file struct {
	path string
	data []byte
}

// render encodes every figure as PNG then SVG, its legend in a column beside the
// data, and names the files in each: all in memory, so bad input writes nothing.
func render(ds []drawn) ([]Figure, []file, error) {
	var figs []Figure
	var files []file
	for _, d := range ds {
		// The legend goes beside the data, never over it: take it off the plot.
		legend := d.plot.Legend
		d.plot.Legend = plot.NewLegend()
		for _, format := range []string{"png", "svg"} {
			data, err := encode(d.plot, legend, d.Series, format)
			if err != nil {
				return nil, nil, fmt.Errorf("figure %s: %w", d.Name, err)
			}
			rel := filepath.ToSlash(filepath.Join(Dir, d.Name+"."+format))
			d.Files = append(d.Files, rel)
			files = append(files, file{rel, data})
		}
		figs = append(figs, d.Figure)
	}
	return figs, files, nil
}

// write renders the figures and writes them into dir/figures, each file atomically;
// no figure writes nothing and leaves no figures folder behind.
func write(dir string, ds []drawn) ([]Figure, error) {
	figs, files, err := render(ds)
	if err != nil || len(files) == 0 {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, Dir), 0o755); err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := resultsdir.WriteFileAtomic(filepath.Join(dir, f.path), f.data); err != nil {
			return nil, err
		}
	}
	return figs, nil
}

// writeOne writes one figure built outside a family's builders (a capacity search,
// a USL fit, the cost of safety).
func writeOne(dir string, d drawn) (Figure, error) {
	figs, err := write(dir, []drawn{d})
	if err != nil {
		return Figure{}, err
	}
	return figs[0], nil
}
