package compare

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/lockbench/lockbench/report/digest"
)

// Write prints a comparison as an aligned table, one row per cell and metric.
func (r Result) Write(w io.Writer, oldLabel, newLabel string) error {
	fmt.Fprintf(w, "old: %s (up to %d samples per cell)\nnew: %s (up to %d samples per cell)\n", oldLabel, r.OldRepeats, newLabel, r.NewRepeats)
	if r.OldRepeats < 2 || r.NewRepeats < 2 {
		fmt.Fprintln(w, "note: without repeats on both sides noise cannot be measured; changes are judged against the threshold only")
	}
	for _, c := range r.EnvironmentChanges {
		fmt.Fprintf(w, "environment changed: %s\n", c)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "cell\tmetric\told\tnew\tdelta\tverdict\tbasis")
	for _, row := range r.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", row.Cell, row.Metric,
			value(row.Metric, row.OldMedian), value(row.Metric, row.NewMedian), delta(row.Delta), row.Verdict, row.Basis)
	}
	if err := tw.Flush(); err != nil {
		return err
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

func value(metric string, v float64) string {
	if metric == "cycles/s" {
		return digest.FormatRate(v)
	}
	return digest.FormatDuration(time.Duration(v))
}

func delta(d float64) string {
	return fmt.Sprintf("%+.1f%%", 100*d)
}
