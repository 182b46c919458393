package results

import (
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/stats"
)

// Verdict is what the data say of a hypothesis.
type Verdict string

const (
	Supported    Verdict = "supported"
	Contradicted Verdict = "contradicted"
	NotShown     Verdict = "not shown"
)

// Alpha is the family-wise level of every test of a claim.
const Alpha = 0.05

// MinJudged is the fewest judged trials a hypothesis takes from each variant it names:
// it is the ADR's plan for a forced interleaving (k of k in 3 runs shows it is forced).
const MinJudged = 3

// CheckResult is one check judged on the reports: its verdict and what it saw.
type CheckResult struct {
	Check   Check
	Verdict Verdict
	Seen    string // the counts behind the verdict, per variant or per condition
	Why     string // set when the verdict is not supported: what is missing or against it
}

// ClaimResult is a claim judged: supported when every check is, contradicted when one is.
type ClaimResult struct {
	Claim   WriteupClaim
	Verdict Verdict
	Checks  []CheckResult
	Ran     bool // some variant of the claim's scenario was in the reports
}

// Judge tests every check of the claim on the reports.
func (c WriteupClaim) Judge(reports []*Report) ClaimResult {
	out := ClaimResult{Claim: c, Verdict: Supported}
	for _, ch := range c.Checks {
		r := c.judgeCheck(reports, ch)
		out.Checks = append(out.Checks, r)
		switch {
		case r.Verdict == Contradicted:
			out.Verdict = Contradicted
		case r.Verdict == NotShown && out.Verdict == Supported:
			out.Verdict = NotShown
		}
	}
	out.Ran = len(c.matching(reports, c.Patterns())) > 0
	return out
}

func (c WriteupClaim) judgeCheck(reports []*Report, ch Check) CheckResult {
	vs := c.matching(reports, ch.Variants)
	r := CheckResult{Check: ch}
	if len(vs) == 0 {
		r.Verdict, r.Why = NotShown, "not run: "+strings.Join(ch.Variants, ", ")
		return r
	}
	if missing := c.unmeasured(vs); len(missing) > 0 {
		r.Verdict, r.Why = NotShown, fmt.Sprintf("%s not measured on %s", c.By, strings.Join(missing, ", "))
		return r
	}
	switch ch.Kind {
	case InEvery, InNone:
		r = c.demonstration(ch, vs)
	case Occurs:
		r = c.occurs(ch, vs)
	case Fewer:
		r = c.fewer(reports, ch, vs)
	default:
		r.Verdict, r.Why = NotShown, "unknown check kind "+string(ch.Kind)
	}
	return withShortfall(r, c.shortfall(reports, ch))
}

// withShortfall makes a verdict that lacks a named variant, or its trials, not shown,
// saying which; a counter-example still contradicts, as one judged trial proves it.
func withShortfall(r CheckResult, short []string) CheckResult {
	if len(short) == 0 || r.Verdict == Contradicted {
		return r
	}
	why := strings.Join(short, "; ")
	if r.Verdict == NotShown && r.Why != "" {
		why += "; " + r.Why
	}
	r.Verdict, r.Why = NotShown, why
	return r
}

// shortfall names each pattern of the check that no variant answered, and each named
// variant judged fewer than MinJudged times. An occurs check needs no count: one judged
// break carries its proof.
func (c WriteupClaim) shortfall(reports []*Report, ch Check) []string {
	patterns := ch.Variants
	if ch.Kind == Fewer {
		patterns = append(append([]string{}, ch.Variants...), ch.Than...)
	}
	var notRun, few []string
	for _, p := range patterns {
		if len(c.matching(reports, []string{p})) == 0 {
			notRun = append(notRun, p)
		}
	}
	// A variant run in several reports (a campaign carried on in a second folder) is
	// one variant: its trials and judged trials add up by name.
	var names []string
	trials, judged := map[string]int{}, map[string]int{}
	for _, v := range c.matching(reports, patterns) {
		if _, seen := trials[v.Name]; !seen {
			names = append(names, v.Name)
		}
		trials[v.Name] += v.Tally.Trials
		judged[v.Name] += v.Tally.Judged
	}
	for _, name := range names {
		switch {
		case trials[name] == 0:
			notRun = append(notRun, name)
		case ch.Kind != Occurs && judged[name] < MinJudged:
			few = append(few, fmt.Sprintf("%s %d", name, judged[name]))
		}
	}
	var out []string
	if len(notRun) > 0 {
		out = append(out, "not run: "+strings.Join(notRun, ", "))
	}
	if len(few) > 0 {
		out = append(out, fmt.Sprintf("judged fewer than %d times: %s", MinJudged, strings.Join(few, ", ")))
	}
	return out
}

// unmeasured names the variants that do not count the claim's measure: a measure a
// variant never computes reads 0 and would pass for "never".
func (c WriteupClaim) unmeasured(vs []*Variant) []string {
	var out []string
	for _, v := range vs {
		declared := v.Measure == c.By
		for _, cl := range v.Claims {
			declared = declared || cl.Measure == c.By
		}
		if !declared {
			out = append(out, v.Name)
		}
	}
	return out
}

// demonstration: a forced interleaving breaks in every judged trial, or in none.
func (c WriteupClaim) demonstration(ch Check, vs []*Variant) CheckResult {
	r := CheckResult{Check: ch, Verdict: Supported}
	var seen, against []string // a variant short of judged trials is the shortfall's to name
	for _, v := range vs {
		k, n := v.Tally.Broke[c.By], v.Tally.Judged
		seen = append(seen, fmt.Sprintf("%s %d/%d (of %d run)", v.Name, k, n, v.Tally.Trials))
		if k == 0 && n > 0 { // none seen is not none: the interval stays
			seen[len(seen)-1] = fmt.Sprintf("%s 0/%d (%s; of %d run)", v.Name, n, neverSpan(n, v.Stopping != ""), v.Tally.Trials)
		}
		if ch.Kind == InEvery && k < n || ch.Kind == InNone && k > 0 {
			against = append(against, v.Name)
		}
	}
	r.Seen = "demonstration, " + string(ch.Kind) + ": " + strings.Join(seen, ", ")
	if len(against) > 0 {
		r.Verdict, r.Why = Contradicted, counterExample[ch.Kind]+strings.Join(against, ", ")
	}
	return r
}

// counterExample says what contradicted a demonstration.
var counterExample = map[CheckKind]string{InEvery: "a judged trial did not break: ", InNone: "a judged trial broke: "}

// occurs: one judged break, with its proof, shows the break happens.
func (c WriteupClaim) occurs(ch Check, vs []*Variant) CheckResult {
	r := CheckResult{Check: ch, Verdict: NotShown, Why: "no judged trial broke"}
	var seen []string
	for _, v := range vs {
		seen = append(seen, fmt.Sprintf("%s %s", v.Name, ProportionOf(v.Tally.Broke[c.By], v.Tally.Judged)))
		if v.Tally.Broke[c.By] > 0 {
			r.Verdict, r.Why = Supported, ""
		}
	}
	r.Seen = "each condition apart: " + strings.Join(seen, "; ")
	return r
}

// pairing is one condition of a Fewer check: the variant tested and the one it is
// compared against.
type pairing struct{ tested, ref *Variant }

// fewer: at each condition, Fisher's exact test (one-sided) that the tested variant
// breaks less often than the reference; Holm across the conditions; a condition where
// it breaks more, significantly after Holm, contradicts the claim.
func (c WriteupClaim) fewer(reports []*Report, ch Check, vs []*Variant) CheckResult {
	r := CheckResult{Check: ch, Verdict: NotShown}
	refs := c.matching(reports, ch.Than)
	if missing := c.unmeasured(refs); len(missing) > 0 {
		r.Why = fmt.Sprintf("%s not measured on %s", c.By, strings.Join(missing, ", "))
		return r
	}
	pairs := pair(ch, vs, refs)
	if len(pairs) == 0 {
		r.Why = "no condition has both " + strings.Join(ch.Variants, ", ") + " and " + strings.Join(ch.Than, ", ")
		return r
	}
	var less, more []float64
	for _, p := range pairs {
		if p.tested.Stopping != "" || p.ref.Stopping != "" {
			r.Why = "trial counts chosen by the data (--until-width): the exact test does not hold for them"
			return r
		}
		k, n, rk, rn := p.tested.Tally.Broke[c.By], p.tested.Tally.Judged, p.ref.Tally.Broke[c.By], p.ref.Tally.Judged
		less = append(less, stats.FisherGreater(rk, rn, k, n))
		more = append(more, stats.FisherGreater(k, n, rk, rn))
	}
	adjLess, adjMore := stats.Adjusted(less, stats.Holm), stats.Adjusted(more, stats.Holm)
	var seen, shown, unshown, against []string
	for i, p := range pairs {
		seen = append(seen, fmt.Sprintf("%s: %d/%d vs %d/%d, p=%s (Holm %s)", p.label(),
			p.tested.Tally.Broke[c.By], p.tested.Tally.Judged, p.ref.Tally.Broke[c.By], p.ref.Tally.Judged,
			pValue(less[i]), pValue(adjLess[i])))
		if adjLess[i] < Alpha {
			shown = append(shown, p.label())
		} else {
			unshown = append(unshown, p.label())
		}
		if adjMore[i] < Alpha {
			against = append(against, p.label())
		}
	}
	r.Seen = fmt.Sprintf("Fisher's exact, one-sided, Holm over %d conditions: %s", len(pairs), strings.Join(seen, "; "))
	switch {
	case len(against) > 0:
		r.Verdict, r.Why = Contradicted, "breaks more often at "+strings.Join(against, ", ")
	case ch.AtEach && len(shown) == len(pairs), !ch.AtEach && len(shown) > 0:
		r.Verdict = Supported
		if len(unshown) > 0 { // say where it was not shown, so no reader takes it for every condition
			r.Why = fmt.Sprintf("shown at %d of %d conditions, not at %s", len(shown), len(pairs), strings.Join(unshown, ", "))
		}
	case ch.AtEach:
		r.Why = fmt.Sprintf("shown at %d of %d conditions, the claim is at each", len(shown), len(pairs))
	default:
		r.Why = "shown at no condition"
	}
	return r
}

// pair matches each tested variant with the reference of its condition, in report
// order. Patterns without a "*" on both sides pair by position.
func pair(ch Check, tested, refs []*Variant) []pairing {
	var out []pairing
	if starless(ch.Variants) && starless(ch.Than) && len(ch.Variants) == len(ch.Than) {
		for i := range ch.Variants {
			v, ref := named(tested, ch.Variants[i]), named(refs, ch.Than[i])
			if v != nil && ref != nil {
				out = append(out, pairing{tested: v, ref: ref})
			}
		}
		return out
	}
	for _, v := range tested {
		cv, _ := conditionOf(ch.Variants, v.Name)
		for _, ref := range refs {
			cr, _ := conditionOf(ch.Than, ref.Name)
			if cv == cr || starless(ch.Variants) || starless(ch.Than) {
				out = append(out, pairing{tested: v, ref: ref})
			}
		}
	}
	return out
}

func starless(patterns []string) bool { return !strings.Contains(strings.Join(patterns, ""), "*") }

// named is the variant called name, or nil.
func named(vs []*Variant, name string) *Variant {
	for _, v := range vs {
		if v.Name == name {
			return v
		}
	}
	return nil
}

func (p pairing) label() string { return p.tested.Name + " vs " + p.ref.Name }

// pValue prints a p-value to two significant figures, small ones as a power of ten.
func pValue(p float64) string {
	if p < 0.0001 {
		return fmt.Sprintf("%.1e", p)
	}
	return fmt.Sprintf("%.2g", p)
}
