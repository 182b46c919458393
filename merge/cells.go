package merge

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/resultsdir"
)

// mergedRun is the merged folder in memory, written only once all of it is built.
type mergedRun struct {
	run      *resultsdir.Run
	warnings []string
	logs     map[string][]resultsdir.Span // by path relative to the folder
	config   []byte
}

// share is one worker's part of one cell.
type share struct {
	w    worker
	cell *resultsdir.Cell
}

// mergeRun adds up every cell of the workers' runs.
func mergeRun(ws []worker, opts Options) (*mergedRun, error) {
	m := &mergedRun{logs: map[string][]resultsdir.Span{}, config: ws[0].yaml}
	env := ws[0].run.Environment
	env.CommandLine = opts.CommandLine
	var hosts []string
	run := &resultsdir.Run{Started: ws[0].run.Started, Finished: ws[0].run.Finished, Complete: true, Environment: env}
	for _, w := range ws {
		hosts = append(hosts, w.run.Environment.Hostname)
		if w.run.Started.Before(run.Started) {
			run.Started = w.run.Started
		}
		if w.run.Finished.After(run.Finished) {
			run.Finished = w.run.Finished
		}
		if n := len(w.run.Cells) + len(w.run.Skipped); n != len(ws[0].run.Cells) {
			return nil,
				refuse("%s holds %d cells, %s %d: the workers did not run the same cells", w, n, ws[0], len(ws[0].run.Cells))
		}
	}
	run.Environment.Hostname = strings.Join(hosts, ",")
	for _, base := range ws[0].run.Cells {
		var shares []share
		for _, w := range ws {
			c, skipped := w.cellOf(base.Name, base.Repeat)
			switch {
			case c != nil:
				shares = append(shares, share{w, c})
			case !skipped:
				return nil, refuse("%s lacks cell %s (repeat %d)", w, base.Name, base.Repeat)
			}
		}
		cell, warnings, err := m.mergeCell(base, shares, opts.MaxSkew)
		if err != nil {
			return nil, err
		}
		run.Cells = append(run.Cells, cell)
		m.warnings = append(m.warnings, warnings...)
	}
	run.Notes = append([]string{fmt.Sprintf("merged from the %d workers of run %q: %s", len(ws), ws[0].tag.RunID,
		dirList(ws))}, m.warnings...)
	m.run = run
	return m, nil
}

func dirList(ws []worker) string {
	var out []string
	for _, w := range ws {
		out = append(out, w.dir)
	}
	return strings.Join(out, ", ")
}

// mergeCell sums the shares' counts, adds their histograms interval by interval, and
// times rates over the window every share was measuring in.
func (m *mergedRun) mergeCell(base resultsdir.Cell, shares []share, maxSkew time.Duration) (resultsdir.Cell, []string,
	error) {
	if err := tile(base, shares); err != nil {
		return resultsdir.Cell{}, nil, err
	}
	out := base
	out.Worker, out.Errors, out.Intervals = nil, nil, nil
	out.Attempts, out.Granted, out.Refused, out.CutOffAttempts, out.CutOffHolds = 0, 0, 0, 0, 0
	out.Load.Dropped = 0
	out.Latency, out.Histograms = map[string]resultsdir.Summary{}, map[string]string{}
	for _, s := range shares {
		c := s.cell
		out.Workers = append(out.Workers, *c.Worker)
		out.Attempts += c.Attempts
		out.Granted += c.Granted
		out.Refused += c.Refused
		out.CutOffAttempts += c.CutOffAttempts
		out.CutOffHolds += c.CutOffHolds
		out.Load.Dropped += c.Load.Dropped
		for kind, n := range c.Errors {
			if out.Errors == nil {
				out.Errors = map[string]int64{}
			}
			out.Errors[kind] += n
		}
	}
	pieces := len(base.Intervals)
	for _, s := range shares {
		if len(s.cell.Intervals) != pieces {
			return out, nil,
				refuse("%s: cell %s has %d intervals, %s's %d", s.w, base.Name, len(s.cell.Intervals), shares[0].w, pieces)
		}
	}
	windows, whole, err := commonWindows(base.Name, shares, pieces)
	if err != nil {
		return out, nil, err
	}
	out.Elapsed = resultsdir.Duration(whole.end.Sub(whole.start))
	if out.Elapsed > 0 {
		out.CyclesPerSecond = float64(out.Granted) / out.Elapsed.D().Seconds()
	}
	if out.Attempts > 0 {
		out.ContendedFailureRatio = float64(out.Refused) / float64(out.Attempts)
	}
	if out.Load.Mode == "open" {
		out.Load.AchievedRate = out.CyclesPerSecond
	}
	for i := range pieces {
		iv := resultsdir.Interval{Elapsed: resultsdir.Duration(windows[i].end.Sub(windows[i].start)),
			Latency: map[string]resultsdir.Summary{}}
		for _, s := range shares {
			iv.Granted += s.cell.Intervals[i].Granted
		}
		if iv.Elapsed > 0 {
			iv.CyclesPerSecond = float64(iv.Granted) / iv.Elapsed.D().Seconds()
		}
		out.Intervals = append(out.Intervals, iv)
	}
	metrics := make([]string, 0, len(base.Histograms))
	for metric := range base.Histograms {
		metrics = append(metrics, metric)
	}
	sort.Strings(metrics)
	for _, metric := range metrics {
		parts, err := addLogs(base.Name, metric, shares, max(pieces, 1))
		if err != nil {
			return out, nil, err
		}
		sum := parts[0].Clone()
		for _, h := range parts[1:] {
			sum.Merge(h)
		}
		out.Latency[metric] = resultsdir.Summarize(sum)
		spans := make([]resultsdir.Span, len(parts))
		for i, h := range parts {
			w := whole
			if pieces > 0 {
				w = windows[i]
				out.Intervals[i].Latency[metric] = resultsdir.Summarize(h)
			}
			spans[i] = resultsdir.Span{H: h, Start: w.start, End: w.end, Tag: fmt.Sprintf("merged=%d", len(shares))}
		}
		rel := base.Histograms[metric]
		out.Histograms[metric] = rel
		m.logs[rel] = spans
	}
	return out, skewWarnings(base.Name, shares, maxSkew), nil
}

// tile refuses shares whose clients do not make up the cell's, each global client once.
func tile(base resultsdir.Cell, shares []share) error {
	next := 0
	for _, s := range shares {
		t := s.cell.Worker
		if t == nil {
			return refuse("%s: cell %s has no worker tag", s.w, base.Name)
		}
		if t.FirstClient != next {
			return refuse("%s: cell %s: its clients start at %d, want %d (after the workers before it)", s.w, base.Name,
				t.FirstClient, next)
		}
		next += t.Clients
	}
	if next != base.Clients {
		return refuse("cell %s: the workers' shares hold %d clients, the cell %d", base.Name, next, base.Clients)
	}
	return nil
}

// addLogs decodes each share's log of metric and adds them, interval by interval.
func addLogs(name, metric string, shares []share, pieces int) ([]*hdrhistogram.Histogram, error) {
	var sum []*hdrhistogram.Histogram
	for _, s := range shares {
		rel, ok := s.cell.Histograms[metric]
		if !ok {
			return nil, refuse("%s: cell %s has no %s histogram", s.w, name, metric)
		}
		parts, err := resultsdir.ReadHistogramIntervals(s.w.dir, rel)
		if err != nil {
			return nil, InputError{err}
		}
		if len(parts) != pieces {
			return nil, refuse("%s: %s holds %d interval histograms, want %d", s.w, rel, len(parts), pieces)
		}
		if sum == nil {
			sum = parts
			continue
		}
		for i, h := range parts {
			sum[i].Merge(h)
		}
	}
	return sum, nil
}
