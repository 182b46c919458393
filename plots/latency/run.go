// Package latency draws the figures of a run's cells: latency spectra, throughput
// against clients, latency against network delay, the slow node, open-loop arrival.
package latency

import (
	"fmt"
	"path/filepath"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// histograms reads a cell's histogram log for a metric from the results folder.
type histograms func(c *resultsdir.Cell, metric string) (*hdrhistogram.Histogram, error)

// builders are the kinds of figure, in the order the report shows them.
var builders = []func(run *source) ([]plots.Drawn, error){
	spectrumFigures,
	throughputFigures,
	networkFigures,
	slowNodeFigures,
	openLoopFigures,
	waitingFigures,
}

// source is what a figure builder reads: the run's cell groups, one style per strategy
// and the histogram logs.
type source struct {
	stores *backend.Catalog // the strategies' safety order and looks
	groups []*stats.Group
	styles plots.Styles
	hist   histograms
	// intervals reads a cell's histogram log one interval at a time.
	intervals func(c *resultsdir.Cell, metric string) ([]*hdrhistogram.Histogram, error)
}

// WriteAll draws every figure the run has data for into dir/figures, as PNG and SVG.
// It renders all of them before it writes any, so bad input leaves nothing behind.
func WriteAll(dir string, stores *backend.Catalog, run *resultsdir.Run) ([]plots.Figure, error) {
	ds, err := build(dir, stores, run)
	if err != nil {
		return nil, err
	}
	return plots.Write(dir, ds)
}

// build draws every figure of the run in memory: what WriteAll would write.
func build(dir string, stores *backend.Catalog, run *resultsdir.Run) ([]plots.Drawn, error) {
	groups := stats.Groups(stores, run)
	src := &source{
		stores: stores,
		groups: groups,
		styles: plots.NewStyles(stores, stats.Strategies(stores, groups)),
		hist: func(c *resultsdir.Cell, metric string) (*hdrhistogram.Histogram, error) {
			rel, ok := c.Histograms[metric]
			if !ok || rel == "" {
				return nil, fmt.Errorf("%s: cell %s has no %s histogram", filepath.Join(dir, resultsdir.JSONFile), c.Name, metric)
			}
			return resultsdir.ReadHistogram(dir, rel)
		},
		intervals: func(c *resultsdir.Cell, metric string) ([]*hdrhistogram.Histogram, error) {
			return resultsdir.ReadHistogramIntervals(dir, c.Histograms[metric])
		},
	}
	var all []plots.Drawn
	for _, b := range builders {
		ds, err := b(src)
		if err != nil {
			return nil, err
		}
		all = append(all, ds...)
	}
	return all, nil
}

// where returns the run's groups that keep says to draw, in order.
func (s *source) where(keep func(*stats.Group) bool) []*stats.Group {
	var out []*stats.Group
	for _, g := range s.groups {
		if keep(g) {
			out = append(out, g)
		}
	}
	return out
}
