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
	var figs []Figure
	var files []file
	for _, d := range ds {
		fs, err := encodeBoth(d)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			d.Files = append(d.Files, f.path)
		}
		files = append(files, fs...)
		figs = append(figs, d.Figure)
	}
	if len(files) == 0 {
		return nil, nil
	}
	return figs, writeFiles(dir, files)
}
