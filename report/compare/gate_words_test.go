package compare

import (
	"os"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/stats"
)

// TestGatePromisesABoundOnlyWhereRepeatsAreTheSamples: the correction's bound is
// printed for rows whose samples are repeats and never for one run's intervals, which
// are told the allowance is a heuristic with its A/A record.
func TestGatePromisesABoundOnlyWhereRepeatsAreTheSamples(t *testing.T) {
	opts := Options{Alpha: 0.05, Threshold: 0.05, Correction: stats.Holm, RunAllowance: DefaultRunAllowance}
	for _, tc := range []struct {
		name      string
		noise     []string
		want, not []string
	}{
		{"repeats only", []string{NoiseInSamples, NoiseInSamples},
			[]string{"2 figures: the samples are repeats", "Holm bounds the chance"}, []string{"heuristic"}},
		{"one run a side", []string{NoiseUnmeasured, NoiseTailUnmeasured},
			[]string{"no bound holds for them", "a heuristic: " + allowanceAA, "1 p99 figure: "}, []string{"bounds the chance"}},
		{"both", []string{NoiseInSamples, NoiseUnmeasured},
			[]string{"1 figure: the samples are repeats", "Holm bounds", "a heuristic"}, nil},
	} {
		r := Result{Options: opts}
		for _, n := range tc.noise {
			r.Rows = append(r.Rows, Row{RunNoise: n})
		}
		words := r.gateWords()
		for _, w := range tc.want {
			if !strings.Contains(words, w) {
				t.Errorf("%s: gate words lack %q:\n%s", tc.name, w, words)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(words, w) {
				t.Errorf("%s: gate words promise %q for rows it does not hold for:\n%s", tc.name, w, words)
			}
		}
	}
}

// TestAllowanceRecordIsTheDocumentedOne: the A/A record the output quotes is the one
// docs/compare.md measured, so the two cannot drift apart.
func TestAllowanceRecordIsTheDocumentedOne(t *testing.T) {
	doc, err := os.ReadFile("../../docs/compare.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	for _, want := range []string{
		"**0 of 10 gates failed.**",                                                     // Ten A/A pairs on a quiet machine
		"**1 of 10 gates failed** (the target was none)", "load average 4-8 on 2 cores", // with a CI job beside them
	} {
		if !strings.Contains(text, want) {
			t.Errorf("docs/compare.md no longer says %q, which the gate's words quote (%s)", want, allowanceAA)
		}
	}
}
