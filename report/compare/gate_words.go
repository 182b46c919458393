package compare

import (
	"fmt"
	"strings"
)

// correctionWords names what each correction bounds.
var correctionWords = map[string]string{
	Holm: "Holm, bounding the chance that any figure is called changed when none is",
	BH:   "Benjamini-Hochberg, bounding the expected share of figures called changed that are not",
}

// gateWords says how the exit status was decided: the family the p-values are
// corrected over, and how each kind of row sees run-to-run noise.
func (r Result) gateWords() string {
	lines := []string{fmt.Sprintf("gate: fails on a figure worse at alpha %g over all %d figures (%s) and by %s or more",
		r.Options.Alpha, len(r.Rows), correctionWords[r.Options.Correction], percent(r.Options.Threshold))}
	counts := map[string]int{}
	largest := 0.0
	for _, row := range r.Rows {
		counts[row.RunNoise]++
		if row.RunNoise == NoiseMeasured {
			largest = max(largest, row.Allowance)
		}
	}
	if n := counts[NoiseInSamples]; n > 0 {
		lines = append(lines, fmt.Sprintf("  %d figure%s: the samples are repeats, so run-to-run noise is in the test", n, plural(n)))
	}
	if n := counts[NoiseMeasured]; n > 0 {
		lines = append(lines, fmt.Sprintf("  %d figure%s: run-to-run noise measured from the repeats; a worsening must also exceed it (allowances up to %s)", n, plural(n), percent(largest)))
	}
	if n := counts[NoiseUnmeasured]; n > 0 {
		lines = append(lines, fmt.Sprintf("  %d figure%s: within-run intervals only: run-to-run noise not measured; a worsening must also exceed the run-to-run allowance of %s (--run-allowance)", n, plural(n), percent(r.Options.RunAllowance)))
	}
	if n := counts[NoiseTailUnmeasured]; n > 0 {
		lines = append(lines, fmt.Sprintf("  %d p99 figure%s: within-run intervals only: shown, not gated (one run's tail moves beyond any allowance between identical runs: docs/compare.md); give each side repeats to gate on tails", n, plural(n)))
	}
	return strings.Join(lines, "\n")
}
