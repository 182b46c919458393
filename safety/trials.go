package safety

import "fmt"

// base lets a scenario's own variant type, which embeds *Variant, go through runTrials.
func (v *Variant) base() *Variant { return v }

// runTrials runs trial env.Trials times for every variant, in order, and returns the
// report that holds the variants: the loop most scenarios share.
func runTrials[V interface{ base() *Variant }](s Scenario, env *Env, variants []V, trial func(v V, n int) error) (*Report, error) {
	rep := &Report{Scenario: s.Name(), Summary: s.Summary(), Seed: env.Seed, TrialsPerVariant: env.Trials, Params: env.Params}
	for _, v := range variants {
		for n := 0; n < env.Trials; n++ {
			if err := trial(v, n); err != nil {
				return nil, fmt.Errorf("%s trial %d: %w", v.base().Name, n, err)
			}
		}
		rep.Variants = append(rep.Variants, v.base())
	}
	return rep, nil
}
