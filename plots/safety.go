package plots

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/results"
)

// safetyBuilders are the kinds of safety figure, in the order results.md shows them.
var safetyBuilders = []func(rep *results.Report) ([]drawn, error){
	safetySeriesFigures,
	overlapFigure,
}

// WriteSafety draws every figure the safety reports have data for into dir/figures,
// as PNG and SVG, and returns them in order. A report without series or overlaps
// draws nothing; nothing at all leaves no figures folder behind. It reads the lab's
// results schema directly: safety/results imports no servers or lock clients.
func WriteSafety(dir string, reports []*results.Report) ([]Figure, error) {
	figs, files, err := renderSafety(reports)
	if err != nil || len(files) == 0 {
		return nil, err
	}
	return figs, writeFiles(dir, files)
}

// writeFiles writes rendered figure files into dir/figures, each atomically.
func writeFiles(dir string, files []file) error {
	if err := os.MkdirAll(filepath.Join(dir, Dir), 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := resultsdir.WriteFileAtomic(filepath.Join(dir, f.path), f.data); err != nil {
			return err
		}
	}
	return nil
}

// renderSafety draws every safety figure in memory, all before any is written.
func renderSafety(reports []*results.Report) ([]Figure, []file, error) {
	var figs []Figure
	var files []file
	for _, rep := range reports {
		if rep == nil {
			continue
		}
		for _, build := range safetyBuilders {
			ds, err := build(rep)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", rep.Scenario, err)
			}
			for _, d := range ds {
				fs, err := encodeBoth(d)
				if err != nil {
					return nil, nil, err
				}
				for _, f := range fs {
					d.Files = append(d.Files, f.path)
				}
				files = append(files, fs...)
				figs = append(figs, d.Figure)
			}
		}
	}
	return figs, files, nil
}

// encodeBoth renders a figure as PNG then SVG, its legend in a column beside the data.
func encodeBoth(d drawn) ([]file, error) {
	legend := d.plot.Legend
	d.plot.Legend = plot.NewLegend()
	var out []file
	for _, format := range []string{"png", "svg"} {
		data, err := encode(d.plot, legend, d.Series, format)
		if err != nil {
			return nil, fmt.Errorf("figure %s: %w", d.Name, err)
		}
		out = append(out, file{filepath.ToSlash(filepath.Join(Dir, d.Name+"."+format)), data})
	}
	return out, nil
}

// safetySlug turns free words ("delay from grant to master kill (ms)") into a
// file-name part ("delay-from-grant-to-master-kill"): the unit in brackets is dropped.
func safetySlug(words string) string {
	if i := strings.Index(words, "("); i >= 0 {
		words = words[:i]
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(words) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '=', r == '.':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		case r == '\'':
			// "replica's" reads as "replicas"
		default:
			dash = true
		}
	}
	return b.String()
}
