package results

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// WriteupClaim is one claim of the write-up this suite answers (its steps, its fencing
// problems, its admitted limits, its rules), stated as hypotheses the lab can test: each
// Check names variants of Scenario, what it expects of them on the one measure By, and
// how that is tested. The claim's verdict is supported only when every check is.
type WriteupClaim struct {
	Step     string // as the write-up numbers it: "step 1", "fencing 3", "limit 1", "rule 1"
	Claim    string
	Scenario string
	By       Measure // one measure for every side of the claim
	Checks   []Check
}

// CheckKind is how a check is tested.
type CheckKind string

const (
	// InEvery: a forced interleaving breaks in every judged trial (a demonstration, not a rate).
	InEvery CheckKind = "always"
	// InNone: a forced interleaving (or its fix) breaks in no judged trial (a demonstration).
	InNone CheckKind = "never"
	// Occurs: the break happens at all; each judged break carries its proof, so one is enough.
	Occurs CheckKind = "occurs"
	// Fewer: the variants break less often than Than's at the same condition (the text a
	// "*" stands for): Fisher's exact test, one-sided, Holm across the conditions.
	Fewer CheckKind = "fewer"
)

// Role says what the checked variants are to the claim.
type Role string

const (
	Breaking Role = "breaks"  // where the write-up says the lock breaks
	Fix      Role = "fix"     // what the write-up offers against it
	Control  Role = "control" // the same set-up without the fault: shows the fault is the cause
)

// Check is one hypothesis of a claim about the variants its patterns name ("*" matches
// any run of characters, '/' too).
type Check struct {
	Kind     CheckKind
	Role     Role
	Variants []string
	// Than names the variants Fewer compares against, paired by condition; a pattern
	// without "*" on either side pairs with every condition of the other.
	Than []string
	// AtEach: Fewer is supported only if it is shown at every condition, not at one.
	AtEach bool
	// Says is the hypothesis in words, for the table.
	Says string
}

// Patterns is every variant pattern the claim's checks read.
func (c WriteupClaim) Patterns() []string {
	var out []string
	for _, ch := range c.Checks {
		out = append(out, ch.Variants...)
		out = append(out, ch.Than...)
	}
	return out
}

// ClaimCount is a count over a set of reports: judged trials where the measure was
// > 0, of those judged, with the variants that matched.
type ClaimCount struct {
	Proportion
	Variants int
	// Anytime says the interval is the confidence sequence: a variant's trials stopped on its data.
	Anytime bool
}

// Count adds up the variants of the claim's scenario that match patterns, by measure
// (or each variant's headline). No match: Variants 0. It pools: callers pass patterns
// that name replicates of one condition.
func (c WriteupClaim) Count(reports []*Report, patterns []string, by Measure) ClaimCount {
	var out ClaimCount
	k, n, stopped := 0, 0, false
	for _, v := range c.matching(reports, patterns) {
		m := by
		if m == "" {
			m = v.Measure
		}
		out.Variants++
		k += v.Tally.Broke[m]
		n += v.Tally.Judged
		stopped = stopped || v.Stopping != ""
	}
	out.Proportion = ProportionOf(k, n)
	if stopped { // a count the data chose: only the confidence sequence holds
		out.Proportion, out.Anytime = SequenceOf(k, n), true
	}
	return out
}

// matching is every variant of the claim's scenario that one of patterns names, in
// report order.
func (c WriteupClaim) matching(reports []*Report, patterns []string) []*Variant {
	return Matching(reports, c.Scenario, patterns)
}

// Matching is every variant of scenario in reports that one of patterns names ("*"
// standing for any run of characters), in report order.
func Matching(reports []*Report, scenario string, patterns []string) []*Variant {
	var out []*Variant
	for _, rep := range reports {
		if rep == nil || rep.Scenario != scenario {
			continue
		}
		for _, v := range rep.Variants {
			if Names(patterns, v.Name) {
				out = append(out, v)
			}
		}
	}
	return out
}

// Names says whether one of patterns names the variant name.
func Names(patterns []string, name string) bool {
	_, ok := conditionOf(patterns, name)
	return ok
}

// conditionOf is what the "*"s of the first pattern naming name stand for ("" for a
// pattern without one), and whether any pattern names it.
func conditionOf(patterns []string, name string) (string, bool) {
	for _, p := range patterns {
		if m := patternRegexp(p).FindStringSubmatch(name); m != nil {
			return strings.Join(m[1:], ","), true
		}
	}
	return "", false
}

// patterns holds each pattern's compiled form: the ADR matches every probe's patterns
// against every variant of every report.
var patterns sync.Map // pattern -> *regexp.Regexp

// patternRegexp is p with each "*" a capturing run of any characters, anchored.
func patternRegexp(p string) *regexp.Regexp {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(p), `\*`, "(.*)") + "$")
	patterns.Store(p, re)
	return re
}

// Demonstrated says whether a claim checks the variant as a forced interleaving
// (always or never): its count is a demonstration, not a rate, and has no interval.
func Demonstrated(scenario, variant string) bool {
	for _, c := range WriteupClaims {
		if c.Scenario != scenario {
			continue
		}
		for _, ch := range c.Checks {
			if _, ok := conditionOf(ch.Variants, variant); ok && (ch.Kind == InEvery || ch.Kind == InNone) {
				return true
			}
		}
	}
	return false
}

// DemonstrationBacked judges a forced interleaving's variant on measure by alone: the
// always or never check of a claim on the same scenario and measure that names it,
// held to that variant's trials (MinJudged of them at least). A count of a forced
// interleaving stands for its mechanism only when this is supported; not shown, with
// why, when no claim checks the variant on by.
func DemonstrationBacked(reports []*Report, scenario, variant string, by Measure) CheckResult {
	for _, c := range WriteupClaims {
		if c.Scenario != scenario || c.By != by {
			continue
		}
		for _, ch := range c.Checks {
			if _, ok := conditionOf(ch.Variants, variant); ok && (ch.Kind == InEvery || ch.Kind == InNone) {
				alone := WriteupClaim{Step: c.Step, Claim: c.Claim, Scenario: scenario, By: by,
					Checks: []Check{{Kind: ch.Kind, Role: ch.Role, Variants: []string{variant}, Says: ch.Says}}}
				return alone.Judge(reports).Checks[0]
			}
		}
	}
	return CheckResult{Verdict: NotShown, Why: fmt.Sprintf("no claim checks %s on %s", variant, by)}
}
