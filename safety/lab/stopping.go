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
	e.markStopping(v)
	return func(yield func(int) bool) {
		for _, n := range e.shardTrials() {
			if !yield(n) || e.stopsAfter(v, n) {
				return
			}
		}
	}
}

// markStopping says on v how its trial count is chosen, when the data choose it.
func (e *Env) markStopping(v *results.Variant) {
	if e.UntilWidth > 0 {
		v.Stopping = fmt.Sprintf("until the 95%% confidence sequence is narrower than %s, at most %d trials",
			percent(e.UntilWidth), e.Trials)
	}
}

// shardTrials are the trial numbers this run runs of each variant, in order.
func (e *Env) shardTrials() []int {
	var ns []int
	for n := 0; n < e.Trials; n++ {
		if e.Shard.Holds(n) {
			ns = append(ns, n)
		}
	}
	return ns
}

// stopsAfter says whether v stops once trial n is recorded: under UntilWidth, when its
// confidence sequence is narrower than that (noted on v).
func (e *Env) stopsAfter(v *results.Variant, n int) bool {
	if a := v.Tally.Anytime; e.UntilWidth > 0 && a.N > 0 && a.Hi-a.Lo < e.UntilWidth {
		v.Note(fmt.Sprintf("stopped after %d trials (%d judged): %s", n+1, a.N, a))
		return true
	}
	return false
}

func percent(x float64) string { return fmt.Sprintf("%g%%", 100*x) }
