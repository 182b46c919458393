package plots

// WriteADRFigures draws an ADR's cost figure (nil: none) and heat maps into
// dir/figures as PNG and SVG; every figure is rendered before any file is written.
func WriteADRFigures(dir string, cost *ADRCost, heats []HeatMap) ([]Figure, error) {
	var ds []drawn
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
	return write(dir, ds)
}
