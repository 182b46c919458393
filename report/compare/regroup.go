package compare

import (
	"fmt"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/resultsdir"
)

// Regroup merges each cell's recorded intervals into k consecutive groups, whose
// sizes differ by at most one, so that a run cut into many short intervals can be
// compared as fewer, fuller ones. Percentiles do not merge, so each group's latencies
// come from merging the interval histograms in the cell's logs under dir.
func Regroup(dir string, run *resultsdir.Run, k int) error {
	if k < 2 {
		return fmt.Errorf("%d intervals: want at least 2", k)
	}
	for i := range run.Cells {
		c := &run.Cells[i]
		n := len(c.Intervals)
		switch {
		case n == 0:
			return fmt.Errorf("%s: cell %s recorded no intervals (lockbench run --intervals records them)", dir, c.Name)
		case n < k:
			return fmt.Errorf("%s: cell %s recorded only %d intervals, fewer than %d", dir, c.Name, n, k)
		case n == k:
			continue
		}
		if len(c.Histograms) == 0 {
			return fmt.Errorf("%s: cell %s has no histogram logs to merge its intervals from", dir, c.Name)
		}
		grouped := make([]resultsdir.Interval, k)
		for g := range grouped {
			grouped[g].Latency = map[string]resultsdir.Summary{}
			for _, iv := range c.Intervals[g*n/k : (g+1)*n/k] {
				grouped[g].Elapsed += iv.Elapsed
				grouped[g].Granted += iv.Granted
			}
			if e := grouped[g].Elapsed.D(); e > 0 {
				grouped[g].CyclesPerSecond = float64(grouped[g].Granted) / e.Seconds()
			}
		}
		for metric, rel := range c.Histograms {
			parts, err := resultsdir.ReadHistogramIntervals(dir, rel)
			if err != nil {
				return err
			}
			if len(parts) != n {
				return fmt.Errorf("%s: cell %s: %s holds %d interval histograms, results.json %d intervals", dir, c.Name, rel,
					len(parts), n)
			}
			for g := range grouped {
				grouped[g].Latency[metric] = resultsdir.Summarize(mergeAll(parts[g*n/k : (g+1)*n/k]))
			}
		}
		c.Intervals = grouped
	}
	return nil
}

func mergeAll(parts []*hdrhistogram.Histogram) *hdrhistogram.Histogram {
	merged := parts[0].Clone()
	for _, h := range parts[1:] {
		merged.Merge(h)
	}
	return merged
}
