package adr

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/plots/decision"
	"github.com/lockbench/lockbench/resultsdir"
)

// Request is one `lockbench adr`.
type Request struct {
	Workload string   // the workload file
	Results  []string // results folders, benchmark and safety alike
	Out      string   // the ADR's path
	Date     string   // the front matter's date
	Command  string   // the command line, quoted in the ADR
	// NoneNeeded: the plan needed no measurement (the queueing floor rules every lock
	// out, and no other option was asked for), so no results is not an error.
	NoneNeeded bool
}

// Generate reads and checks every input, decides, draws the figures beside the ADR
// (in figures/ of its folder) and writes the ADR. Bad input (FieldError, InputError)
// is found before anything is written.
func Generate(req Request) (*Decision, error) {
	w, err := LoadWorkload(req.Workload)
	if err != nil {
		return nil, err
	}
	in := &Inputs{}
	if len(req.Results) > 0 || !req.NoneNeeded {
		if in, err = LoadInputs(req.Results); err != nil {
			return nil, err
		}
	}
	d := Decide(w, in)
	dir := filepath.Dir(req.Out)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	figs,
		err := decision.WriteADRFigures(dir, costFigure(d), heatMaps(in.Safety),
		append(boundaryFigures(d, in.Safety), quorumFigures(d)...))
	if err != nil {
		return nil, err
	}
	meta := Meta{Date: req.Date, WorkloadFile: req.Workload, Command: req.Command, OutDir: dir}
	for _, f := range figs {
		meta.Figures = append(meta.Figures, Figure{Name: f.Name, File: f.Files[0], Caption: f.Caption})
	}
	if err := resultsdir.WriteFileAtomic(req.Out, []byte(Markdown(d, meta))); err != nil {
		return nil, err
	}
	return d, nil
}

// costFigure is every priced option at its upper end a year; nil when none has both.
func costFigure(d *Decision) *decision.ADRCost {
	w := d.Workload
	f := &decision.ADRCost{Name: "adr-cost-vs-violations",
		YLabel:      fmt.Sprintf("%s acquire at %s/s (ms, log)", w.SLO.Percentile, Plain(w.LockRate)),
		BudgetMs:    float64(w.SLO.Budget) / 1e6,
		BudgetLabel: "budget " + string(w.SLO.Percentile) + " " + w.Budget.Max,
	}
	if w.Purpose == workload.Correctness {
		f.Title = "Cost against violations reaching the data a year"
		f.XLabel = "reaching the data a year, upper end of 95% interval (log)"
		f.Caption = "Each point is an option priced at the workload's rate; x is the upper end of its expected violations " +
			"reaching the data a year (a ring: none was seen in any judged trial, the point is the bound; partial: some fault " +
			"that can strike it is not measured, so the true x is larger). For correctness the threshold is zero seen, which " +
			"a log axis cannot draw: only rings below the budget line can qualify."
	} else {
		f.Title = "Cost against locks broken (duplicate work) a year"
		f.XLabel = "locks broken a year, upper end of 95% interval (log)"
		f.Threshold = *w.DuplicateBudget
		f.ThresholdLabel = "duplicates " + Plain(*w.DuplicateBudget) + "/year"
		f.Caption = "Each point is an option priced at the workload's rate; x is the upper end of its expected locks " +
			"broken a year (a ring: none was seen; bound: some fault that can strike it is not measured and counts at its " +
			"worst, every such fault breaking the lock). Options left of the dotted line and below the dashed one meet the " +
			"purpose."
	}
	for _, o := range d.Options {
		total, missing := Total(o.Faults, side(w, o))
		label := o.Name
		switch {
		case w.Purpose == workload.Efficiency && o.Kind != LockFree:
			total = o.Verdict.Year // the unmeasured faults at their worst are in its upper end
			if len(missing) > 0 {
				label += " (bound)"
			}
		case len(missing) > 0:
			label += " (partial)" // faults it is exposed to are missing from x
		}
		if !o.Cost.Measured || total.Hi <= 0 || math.IsInf(total.Hi, 1) || o.Cost.AtBudget <= 0 {
			continue // no point to draw: unpriced, or no bound (a window fault's window not measured)
		}
		f.Points = append(f.Points,
			decision.ADRPoint{Label: label, PerYear: total.Hi, Seen: anySeen(o.Faults, side(w, o)),
				CostMs: float64(o.Cost.AtBudget) / 1e6})
	}
	if len(f.Points) == 0 {
		return nil
	}
	return f
}
