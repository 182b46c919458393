package plots

import (
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"

	"github.com/lockbench/lockbench/resultsdir"
)

// writeFigure renders one figure built outside WriteAll's builders (the capacity
// search, the USL fit) as PNG and SVG into dir/figures.
func writeFigure(dir string, d drawn) (Figure, error) {
	legend := d.plot.Legend
	d.plot.Legend = plot.NewLegend()
	var files []file
	for _, format := range []string{"png", "svg"} {
		data, err := encode(d.plot, legend, d.Series, format)
		if err != nil {
			return Figure{}, fmt.Errorf("figure %s: %w", d.Name, err)
		}
		rel := filepath.ToSlash(filepath.Join(Dir, d.Name+"."+format))
		d.Files = append(d.Files, rel)
		files = append(files, file{rel, data})
	}
	if err := os.MkdirAll(filepath.Join(dir, Dir), 0o755); err != nil {
		return Figure{}, err
	}
	for _, f := range files {
		if err := resultsdir.WriteFileAtomic(filepath.Join(dir, f.path), f.data); err != nil {
			return Figure{}, err
		}
	}
	return d.Figure, nil
}
