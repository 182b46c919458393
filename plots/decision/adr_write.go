// Package decision draws the figures that weigh a choice: what a correct update costs
// against the updates lost, and an ADR's cost against violations a year and its heat maps.
package decision

import "github.com/lockbench/lockbench/plots"

// WriteADRFigures draws an ADR's cost figure (nil: none), heat maps and model checks
// into dir/figures as PNG and SVG; every figure is rendered before any file is written.
func WriteADRFigures(dir string, cost *ADRCost, heats []HeatMap, checks []ModelCheck) ([]plots.Figure, error) {
	var ds []plots.Drawn
	if cost != nil && len(cost.Points) > 0 {
		d, err := adrCostFigure(*cost)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	for _, h := range heats {
		d, err := heatFigure(h)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	for _, c := range checks {
		d, err := modelCheckFigure(c)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	return plots.Write(dir, ds)
}
