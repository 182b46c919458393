package results

import (
	"fmt"
	"reflect"
)

// replayed is what of a trial any run with the same seed gives again when its
// interleaving is forced: its index, seed, draws, outcome and counts, and how many
// proof lines and overlaps it saw (their text and lengths are timings, the run's own).
type replayed struct {
	N                int
	Seed             uint64
	Inputs           map[string]float64
	Outcome          Outcome
	ErrorKind        string
	Counts           map[Measure]int
	Proofs, Overlaps int
}

func replayOf(tr Trial) replayed {
	return replayed{tr.N, tr.Seed, tr.Inputs, tr.Outcome, tr.ErrorKind, tr.Counts, len(tr.Proof), len(tr.Overlap)}
}

// ReplayDifferences lists where two runs of the same scenarios and seed differ in what
// a forced interleaving gives again in any run: the variants, each trial's replayed
// part, each tally's counts and intervals, and the claims table. Empty means one run
// replays the other (a merged campaign and the single run it split, say).
func ReplayDifferences(a, b Results) []string {
	var diffs []string
	if len(a.Reports) != len(b.Reports) {
		return []string{fmt.Sprintf("%d reports against %d", len(a.Reports), len(b.Reports))}
	}
	for i, ra := range a.Reports {
		rb := b.Reports[i]
		if ra.Scenario != rb.Scenario || len(ra.Variants) != len(rb.Variants) {
			diffs = append(diffs,
				fmt.Sprintf("report %d: %s with %d variants against %s with %d", i, ra.Scenario, len(ra.Variants), rb.Scenario,
					len(rb.Variants)))
			continue
		}
		for j, va := range ra.Variants {
			diffs = append(diffs, variantDifferences(ra.Scenario, va, rb.Variants[j])...)
		}
	}
	if x, y := ClaimsTable(a.Reports), ClaimsTable(b.Reports); x != y {
		diffs = append(diffs, fmt.Sprintf("claims table:\n%s\nagainst\n%s", x, y))
	}
	return diffs
}

func variantDifferences(scenario string, a, b *Variant) []string {
	where := scenario + "/" + a.Name
	if a.Name != b.Name || len(a.Trials) != len(b.Trials) {
		return []string{fmt.Sprintf("%s: %d trials against %s with %d", where, len(a.Trials), b.Name, len(b.Trials))}
	}
	var diffs []string
	for n := range a.Trials {
		if x, y := replayOf(a.Trials[n]), replayOf(b.Trials[n]); !reflect.DeepEqual(x, y) {
			diffs = append(diffs, fmt.Sprintf("%s trial %d: %+v against %+v", where, n, x, y))
		}
	}
	x, y := a.Tally, b.Tally
	if x.Trials != y.Trials || x.Judged != y.Judged || x.FaultNotProduced != y.FaultNotProduced ||
		x.NotGranted != y.NotGranted ||
		!reflect.DeepEqual(x.Errors, y.Errors) || !reflect.DeepEqual(x.Broke, y.Broke) ||
		!reflect.DeepEqual(x.Sums, y.Sums) ||
		x.Headline != y.Headline || x.Anytime != y.Anytime || x.Overlap.N != y.Overlap.N {
		diffs = append(diffs, fmt.Sprintf("%s tally: %+v against %+v", where, x, y))
	}
	return diffs
}
