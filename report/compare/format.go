package compare

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lockbench/lockbench/stats"
)

// Footnote marks, as benchstat prints them.
const (
	markUnbounded = "¹"
	markTooFew    = "²"
)

// intervalNote is said whenever a verdict rests on intervals.
const intervalNote = `note: where the samples are intervals, they come from one run per side and are not
independent samples: one run's servers, machine state and drift are common to all of
them, so their p-values miss the noise between runs and can call a drift of the machine
a change. Repeats across runs (lockbench run --repeat N, or several folders a side) are
the stronger test.`

// Write prints a comparison in benchstat's habits: a table per metric, each side's
// median ± its 95% interval, the change with its p-value and sample counts, "~" where
// it is not significant, and a geomean row.
func (r Result) Write(w io.Writer, oldLabel, newLabel string) error {
	fmt.Fprintf(w, "old: %s\nnew: %s\n", oldLabel, newLabel)
	fmt.Fprintf(w, "samples: %s\n", r.sampleWords())
	if r.uses(ByInterval) {
		fmt.Fprintln(w, intervalNote)
	}
	fmt.Fprintln(w, r.gateWords())
	for _, c := range r.EnvironmentChanges {
		fmt.Fprintf(w, "environment changed: %s\n", c)
	}
	unbounded, tooFew := false, false
	for _, g := range r.Geomeans {
		fmt.Fprintf(w, "\n%s\n", g.Metric)
		var table bytes.Buffer
		tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "cell\told ± 95%\tnew ± 95%\tvs old\t")
		for _, row := range r.Rows {
			if row.Metric != g.Metric {
				continue
			}
			unbounded = unbounded || !row.OldSpread.Bounded || !row.NewSpread.Bounded
			tooFew = tooFew || row.TooFew
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", row.Cell, spreadText(row.OldSpread, row.Rate),
				spreadText(row.NewSpread, row.Rate), row.change(r.Options.Correction), r.verdictWords(row))
		}
		fmt.Fprintf(tw, "geomean\t%s\t%s\t%s\t\n", value(g.Old, g.Rate), value(g.New, g.Rate), signed(g.Delta))
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, line := range strings.Split(strings.TrimSuffix(table.String(), "\n"), "\n") {
			fmt.Fprintln(w, strings.TrimRight(line, " ")) // the verdict column is often empty
		}
	}
	if unbounded || tooFew {
		fmt.Fprintln(w)
	}
	if unbounded {
		fmt.Fprintf(w, "%s need at least 6 samples for a 95%% interval around the median\n", markUnbounded)
	}
	if tooFew {
		fmt.Fprintf(w, "%s need at least 4 samples a side to reach alpha %g: measure with --intervals or --repeat\n",
			markTooFew, r.Options.Alpha)
	}
	for _, n := range r.OnlyOld {
		fmt.Fprintf(w, "only in old: %s\n", n)
	}
	for _, n := range r.OnlyNew {
		fmt.Fprintf(w, "only in new: %s\n", n)
	}
	_, err := fmt.Fprintf(w, "\n%s\n", r.Summary())
	return err
}

// change is the "vs old" column: the change and its test (the p-value, then adjusted
// for the family), or ~ with the test.
func (row Row) change(correction string) string {
	test := fmt.Sprintf("(p=%.3f %s=%.3f n=%d+%d)", row.P, correction, row.Adjusted, len(row.Old), len(row.New))
	switch {
	case row.Verdict == Unchanged:
		return "unchanged"
	case row.TooFew:
		return fmt.Sprintf("~ (n=%d+%d)%s", len(row.Old), len(row.New), markTooFew)
	case row.Verdict == Noise:
		return "~ " + test
	}
	return signed(row.Delta) + " " + test
}

// verdictWords is the last column: the verdict, and what it could not see.
func (r Result) verdictWords(row Row) string {
	var words string
	switch {
	case row.Regression:
		words = fmt.Sprintf("worse, by %s or more", percent(r.Options.Threshold))
	case row.Verdict == Worse && row.RunNoise == NoiseTailUnmeasured:
		words = "worse, not gated: a tail from one run a side"
	case row.Verdict == Worse && math.Abs(row.Delta) >= r.Options.Threshold:
		words = fmt.Sprintf("worse, within the run-to-run allowance of %s", percent(row.Allowance))
	case row.Verdict == Worse, row.Verdict == Better:
		words = row.Verdict
	}
	if row.Verdict == Unchanged || (row.RunNoise != NoiseUnmeasured && row.RunNoise != NoiseTailUnmeasured) {
		return words
	}
	return strings.TrimPrefix(words+"; within-run intervals only: run-to-run noise not measured", "; ")
}

// sampleWords says what the samples of the compared cells were, counting cells by kind.
func (r Result) sampleWords() string {
	cells := map[string]map[string]bool{}
	for _, row := range r.Rows {
		if cells[row.Samples] == nil {
			cells[row.Samples] = map[string]bool{}
		}
		cells[row.Samples][row.Cell] = true
	}
	words := map[string]string{
		ByRepeat:   "repeats of the cell",
		ByInterval: "intervals of the cell's measured part",
		ByRun:      "one figure per run (no repeats, no intervals)",
	}
	var parts []string
	for _, kind := range []string{ByRepeat, ByInterval, ByRun} {
		if n := len(cells[kind]); n > 0 {
			parts = append(parts, fmt.Sprintf("%s for %d cell%s", words[kind], n, plural(n)))
		}
	}
	if len(parts) == 0 {
		return "none: no cell in common"
	}
	return strings.Join(parts, "; ")
}

func (r Result) uses(kind string) bool {
	for _, row := range r.Rows {
		if row.Samples == kind && row.Verdict != Unchanged {
			return true
		}
	}
	return false
}

func spreadText(s Spread, rate bool) string {
	if !s.Bounded {
		return value(s.Median, rate) + " ± ∞" + markUnbounded
	}
	w := 100 * s.RelativeWidth()
	if w < 10 {
		return fmt.Sprintf("%s ± %.1f%%", value(s.Median, rate), w)
	}
	return fmt.Sprintf("%s ± %.0f%%", value(s.Median, rate), w)
}

func value(v float64, rate bool) string {
	if rate {
		return stats.FormatRate(v)
	}
	return stats.FormatDuration(time.Duration(v))
}

func signed(d float64) string {
	return fmt.Sprintf("%+.2f%%", 100*d)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
