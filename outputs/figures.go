package outputs

import (
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/plots/decision"
	"github.com/lockbench/lockbench/plots/latency"
	"github.com/lockbench/lockbench/plots/scaling"
	"github.com/lockbench/lockbench/report"
	"github.com/lockbench/lockbench/resultsdir"
)

// draw draws every figure the report of in embeds into in.Dir/figures: the run's
// cells, cost against lost updates, the capacity knees, the USL fits, the scaling axes.
func draw(in *report.Input) (report.Figures, error) {
	var figs report.Figures
	if len(in.LockRun.Cells) > 0 {
		run, err := latency.WriteAll(in.Dir, in.Options.Stores, in.LockRun)
		if err != nil {
			return figs, err
		}
		figs.Run = allNamed(run)
	}
	if in.JoinsSafety() {
		cost, err := decision.WriteCostVsLoss(in.Dir, in.Options.Stores, costLossPoints(in.Ways))
		if err != nil {
			return figs, err
		}
		if cost != nil {
			f := named(*cost)
			figs.CostVsLoss = &f
		}
	}
	if in.Searched != nil && len(in.Searched.Searches) > 0 {
		knees, err := scaling.KneeFigures(in.Dir, in.Options.Stores, *in.Searched)
		if err != nil {
			return figs, err
		}
		figs.Knees = allNamed(knees)
	}
	usl, err := scaling.USLFigures(in.Dir, in.Options.Stores, in.Fits)
	if err != nil {
		return figs, err
	}
	figs.USL = allNamed(usl)
	// The scaling presets' sizes are the sweep's: the figures take them as data.
	scaling, err := scaling.ScalingFigures(in.Dir, in.Groups, scaling.ScalingAxes(in.Options.Stores))
	if err != nil {
		return figs, err
	}
	figs.Scaling = allNamed(scaling)
	return figs, nil
}

// costLossPoints places each way measured on both sides: what one correct update
// costs (p50) against the changes that went wrong per 1,000 proven faults.
func costLossPoints(ways []*report.Way) []decision.CostLossPoint {
	var points []decision.CostLossPoint
	for _, w := range ways {
		if w.Cost == nil || w.Faults == 0 {
			continue
		}
		series := w.Guard
		if w.Fence != "" {
			series += " (" + w.Fence + ")"
		}
		points = append(points, decision.CostLossPoint{Strategy: w.Strategy, Series: series,
			CostMs: float64(w.Cost.Latency[resultsdir.MetricUpdate].P50) / 1e6, WrongPer1000: w.WrongPer1000()})
	}
	return points
}

// named is how the report names a drawn figure: its files and caption.
func named(f plots.Figure) report.Figure {
	return report.Figure{Name: f.Name, Files: f.Files, Caption: f.Caption}
}

func allNamed(figs []plots.Figure) []report.Figure {
	var out []report.Figure
	for _, f := range figs {
		out = append(out, named(f))
	}
	return out
}
