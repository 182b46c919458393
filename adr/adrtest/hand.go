package adrtest

import "github.com/lockbench/lockbench/safety/results"

// HandVariant is n judged trials of one variant, the first k with measure by at 1.
func HandVariant(name string, by results.Measure, n, k int) *results.Variant {
	v := &results.Variant{Name: name, Measure: by}
	for i := 0; i < n; i++ {
		c := 0
		if i < k {
			c = 1
		}
		v.Add(results.Trial{N: i, Outcome: results.Judged, Counts: map[results.Measure]int{by: c},
			Proof: []string{"by hand"}})
	}
	return v
}

// HandReport is one complete report of scenario with the variants vs.
func HandReport(scenario string, vs ...*results.Variant) []*results.Report {
	return []*results.Report{{Scenario: scenario, Complete: true, Variants: vs}}
}
