package compare

import (
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/stats"
)

// correctionWords names what each correction bounds when its p-values are of repeats.
var correctionWords = map[string]string{
	stats.Holm: "Holm bounds the chance that any of them is called worse when none changed",
	stats.BH:   "Benjamini-Hochberg bounds the expected share of them called worse that did not change",
}

// allowanceAA is the allowance's record on real A/A pairs, the only evidence it has:
// it is a heuristic, so the output says how it fared rather than promising a rate.
// TestAllowanceRecordIsTheDocumentedOne keeps it equal to docs/compare.md's tables.
const allowanceAA = "A/A gates failed 0 of 10 pairs on a quiet machine and 1 of 10 under load 4-8 (docs/compare.md)"

// gateWords says how the exit status was decided and what it promises for each kind of
// row: a correction's bound only where the samples are repeats (one run's intervals
// share its machine state, so their p-values carry no bound between runs), a measured
// allowance where repeats measured the noise, and a stated heuristic where nothing did.
func (r Result) gateWords() string {
	lines := []string{fmt.Sprintf("gate: fails on a figure worse by %s or more whose p-value, adjusted over all %d "+
		"figures (%s), is below alpha %g, and that exceeds the run-to-run noise as each line below says",
		percent(r.Options.Threshold), len(r.Rows), r.Options.Correction, r.Options.Alpha)}
	counts := map[string]int{}
	largest := 0.0
	for _, row := range r.Rows {
		counts[row.RunNoise]++
		if row.RunNoise == NoiseMeasured {
			largest = max(largest, row.Allowance)
		}
	}
	if n := counts[NoiseInSamples]; n > 0 {
		lines = append(lines, fmt.Sprintf("  %d figure%s: the samples are repeats, so run-to-run noise is in the test; "+
			"over them %s at alpha %g", n, plural(n), correctionWords[r.Options.Correction], r.Options.Alpha))
	}
	if n := counts[NoiseMeasured]; n > 0 {
		lines = append(lines, fmt.Sprintf("  %d figure%s: within-run intervals, with run-to-run noise measured from the "+
			"repeats; a worsening must also exceed it (allowances up to %s)", n, plural(n), percent(largest)))
	}
	if n := counts[NoiseUnmeasured]; n > 0 {
		lines = append(lines, fmt.Sprintf("  %d figure%s: within-run intervals only, run-to-run noise not measured, so "+
			"no bound holds for them; a worsening must also exceed the run-to-run allowance of %s (--run-allowance), "+
			"a heuristic: %s", n, plural(n), percent(r.Options.RunAllowance), allowanceAA))
	}
	if n := counts[NoiseTailUnmeasured]; n > 0 {
		lines = append(lines, fmt.Sprintf("  %d p99 figure%s: within-run intervals only: shown, not gated (one run's "+
			"tail moves beyond any allowance between identical runs: docs/compare.md); give each side repeats to "+
			"gate on tails", n, plural(n)))
	}
	return strings.Join(lines, "\n")
}
