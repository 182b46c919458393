package safety

import "fmt"

// runTrials runs trial env.Trials times for every variant, in order, and returns the
// report that holds the variants: the loop most scenarios share.
func runTrials(s Scenario, env *Env, variants []*Variant, trial func(v *Variant, n int) error) (*Report, error) {
	rep := &Report{Scenario: s.Name(), Summary: s.Summary(), Seed: env.Seed, TrialsPerVariant: env.Trials, Params: env.Params}
	for _, v := range variants {
		for n := 0; n < env.Trials; n++ {
			if err := trial(v, n); err != nil {
				return nil, fmt.Errorf("%s trial %d: %w", v.Name, n, err)
			}
		}
		rep.Variants = append(rep.Variants, v)
	}
	return rep, nil
}
