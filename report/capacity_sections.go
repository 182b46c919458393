package report

import (
	"strings"

	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// capacitySections are the report's sections on capacity and scaling, each present
// only when the folder has its data: the searched capacity (a `lockbench capacity`
// folder's capacity.json), the USL fit of throughput against clients, and p99
// against Redlock nodes and WAIT replicas. Their figures are drawn into dir.
func capacitySections(dir string, lockRun *resultsdir.Run) (string, []plots.Figure, error) {
	var b strings.Builder
	var figs []plots.Figure
	rec, ok, err := capacity.ReadRecord(dir)
	if err != nil {
		return "", nil, InputError{err}
	}
	if ok && len(rec.Searches) > 0 {
		knees, err := kneeFigures(dir, rec)
		if err != nil {
			return "", nil, err
		}
		writeSearchedCapacity(&b, rec, knees)
		figs = append(figs, knees...)
	}
	groups := stats.Groups(lockRun)
	if fits := uslFits(groups); len(fits) > 0 {
		uslFigs, err := uslFigures(dir, fits)
		if err != nil {
			return "", nil, err
		}
		writeUSL(&b, fits, uslFigs)
		figs = append(figs, uslFigs...)
	}
	text, scaling, err := scalingFigures(dir, groups)
	if err != nil {
		return "", nil, err
	}
	b.WriteString(text)
	return b.String(), append(figs, scaling...), nil
}
