package compare

import (
	"math"

	"github.com/lockbench/lockbench/stats"
)

// decide gives every row its verdict over the whole family: the p-values are adjusted
// for the number of figures compared, and a significant worsening fails the gate only
// when it reaches the threshold and, where the samples cannot see run-to-run noise,
// the allowance for it.
func decide(rows []Row, opts Options) {
	ps := make([]float64, len(rows))
	for i, r := range rows {
		ps[i] = r.P
	}
	adj := stats.Adjusted(ps, opts.Correction)
	for i := range rows {
		r := &rows[i]
		r.Adjusted = adj[i]
		if r.Verdict == Unchanged {
			continue
		}
		r.Verdict = Noise
		if r.tested && r.Adjusted < opts.Alpha && r.NewSpread.Median != r.OldSpread.Median {
			r.Verdict = Better
			if r.factor > 1 {
				r.Verdict = Worse
			}
		}
		r.Regression = r.Verdict == Worse && math.Abs(r.Delta) >= opts.Threshold && r.factor-1 >= r.Allowance
	}
}
