package lab

import (
	"fmt"
	"iter"

	"github.com/lockbench/lockbench/safety/results"
)

// TrialsOf yields v's trial numbers, 0 to Trials-1, only the shard's when the run is
// one worker's share (Env.Shard); under UntilWidth it stops once v's
// confidence sequence is narrower than that. The count then depends on the data, so v
// is marked and its tables read the sequence, never the fixed-n interval.
func (e *Env) TrialsOf(v *results.Variant) iter.Seq[int] {
	if e.UntilWidth > 0 {
		v.Stopping = fmt.Sprintf("until the 95%% confidence sequence is narrower than %s, at most %d trials", percent(e.UntilWidth), e.Trials)
	}
	return func(yield func(int) bool) {
		for n := 0; n < e.Trials; n++ {
			if !e.Shard.Holds(n) {
				continue
			}
			if !yield(n) {
				return
			}
			if a := v.Tally.Anytime; e.UntilWidth > 0 && a.N > 0 && a.Hi-a.Lo < e.UntilWidth {
				v.Note(fmt.Sprintf("stopped after %d trials (%d judged): %s", n+1, a.N, a))
				return
			}
		}
	}
}

func percent(x float64) string { return fmt.Sprintf("%g%%", 100*x) }
