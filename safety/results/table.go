package results

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// String is "3 of 20 judged (5-36%)", or "no verdict" when nothing was judged: a
// share of zero is never printed as "safe".
func (p Proportion) String() string {
	if p.N == 0 {
		return "no verdict"
	}
	return fmt.Sprintf("%d of %d judged (%s)", p.K, p.N, span(p.Lo, p.Hi))
}

// Headline is the variant's count with its interval, named when it is the confidence
// sequence (the trials stopped on the data); a forced interleaving's count is a
// demonstration, printed without one.
func Headline(scenario string, v *Variant) string {
	if Demonstrated(scenario, v.Name) {
		return demonstration(v.Tally.Broke[v.Measure], v.Tally.Judged, v)
	}
	if v.Stopping != "" {
		return v.Interval().String() + ", confidence sequence"
	}
	return v.Interval().String()
}

// demonstration is "demonstration: 20 of 20 judged (always)": a forced interleaving's count.
func demonstration(k, n int, v *Variant) string {
	if n == 0 {
		return "no verdict"
	}
	how := "in some, not all"
	switch k {
	case n:
		how = "always"
	case 0:
		how = "never; " + neverSpan(n, v.Stopping != "")
	}
	return fmt.Sprintf("demonstration: %d of %d judged (%s)", k, n, how)
}

// neverSpan is the interval 0 of n keeps (none seen is not none): the confidence
// sequence, named, when the data chose the trial count.
func neverSpan(n int, stopped bool) string {
	if stopped {
		p := SequenceOf(0, n)
		return span(p.Lo, p.Hi) + ", confidence sequence"
	}
	p := ProportionOf(0, n)
	return span(p.Lo, p.Hi)
}

// span is an interval in percent, "0-16%".
func span(lo, hi float64) string { return number(lo) + "-" + number(hi) + "%" }

func number(x float64) string {
	if x > 0 && x < 0.01 {
		return fmt.Sprintf("%.1f", 100*x)
	}
	return fmt.Sprintf("%.0f", 100*x)
}

// ErrorsString is "timeout×2, connection×1", sorted by kind, or "0".
func (t Tally) ErrorsString() string {
	kinds := make([]string, 0, len(t.Errors))
	for k := range t.Errors {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s×%d", k, t.Errors[k]))
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, ", ")
}

// Table renders the report as Markdown: one row per variant, then what each variant
// did, its notes and its series.
func (r *Report) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s (seed %d, %d trials per variant", r.Scenario, r.Seed, r.TrialsPerVariant)
	if r.Seconds > 0 {
		fmt.Fprintf(&b, "; %.1f trials per minute, %v in all", r.TrialsPerMinute,
			(time.Duration(r.Seconds * float64(time.Second))).Round(time.Second))
	}
	if r.Provider != "" {
		fmt.Fprintf(&b, "; servers from provider %s", r.Provider)
	}
	fmt.Fprintf(&b, ")\n\n%s\n\n", r.Summary)
	b.WriteString("| variant | claims | trials | judged | headline: trials where it was > 0 (95% interval) | two " +
		"holders: trials / pairs | fault not produced | not granted | errors | lost locks | orphans | reissued tokens | " +
		"stale accepted / rejected | honest rejected / diverged | not linearizable / unknown | second client granted | " +
		"overlap ms p50/p99/max | window ms p50/p99/max | trial s p50 |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, v := range r.Variants {
		t := v.Tally
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s: %s | %d / %d | %d | %d | %s | %d | %d | %d | %d / %d | %d / %d | %d / "+
			"%d | %d | %s | %s | %s |\n",
			v.Name, claims(v.Claims), t.Trials, t.Judged, v.Measure, Headline(r.Scenario, v), t.Broke[Violations],
			t.Sums[Violations],
			t.FaultNotProduced, t.NotGranted, t.ErrorsString(), t.Sums[LostLocks], t.Sums[Orphans], t.Sums[ReissuedTokens],
			t.Sums[StaleAccepted], t.Sums[StaleRejected], t.Sums[HonestRejected], t.Sums[Diverged],
			t.Sums[NotLinearizable], t.Sums[LinearUnknown], t.Broke[SecondGranted], t.Overlap.short(), t.Window.short(),
			t.TrialSeconds.median())
	}
	b.WriteString(r.smallestBreaking())
	b.WriteString(r.auditCounts())
	for _, v := range r.Variants {
		fmt.Fprintf(&b, "\n- **%s**: %s", v.Name, v.Description)
		if v.WindowIs != "" {
			b.WriteString(map[bool]string{true: " ", false: ". "}[strings.HasSuffix(v.Description, ".")] + "Window: " +
				v.WindowIs + ".")
		}
		for _, n := range v.Notes {
			fmt.Fprintf(&b, "\n  - %s", n)
		}
	}
	b.WriteString("\n")
	for _, s := range r.Series {
		fmt.Fprintf(&b, "\n%s (%s against %s): ", s.Name, s.Y, s.X)
		var pts []string
		for _, p := range s.Points {
			if p.Lo != p.Hi {
				pts = append(pts, fmt.Sprintf("%g→%.2f (%d of %d, %s)", p.X, p.Y, p.K, p.N, span(p.Lo, p.Hi)))
			} else {
				pts = append(pts, fmt.Sprintf("%g→%.2f", p.X, p.Y))
			}
		}
		b.WriteString(strings.Join(pts, ", ") + "\n")
	}
	return b.String()
}

func claims(cs []Claim) string {
	if len(cs) == 0 {
		return "measured"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, ", ")
}

// smallestBreaking lists, for scenarios that bisect a fault's size, the smallest
// value that broke mutual exclusion beside what the model predicts.
func (r *Report) smallestBreaking() string {
	var rows []string
	for _, v := range r.Variants {
		measured, ok := v.Params["measured_smallest"]
		if !ok {
			continue
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s |", v.Name, measured, v.Params["model_smallest"]))
	}
	if len(rows) == 0 {
		return ""
	}
	return "\n### Smallest breaking values, measured beside the model\n\n| search | measured | model |\n|---|---|---|\n" +
		strings.Join(rows, "\n") + "\n"
}

// auditCounts lists, for scenarios that audit their resource, each audit measure as
// the judged trials where it was > 0 and its sum over them.
func (r *Report) auditCounts() string {
	measures := append(append([]Measure(nil), AuditMeasures...), HonestRejected)
	audited := func(v *Variant) bool {
		for _, m := range AuditMeasures {
			if _, ok := v.Tally.Sums[m]; ok {
				return true
			}
		}
		return false
	}
	var rows []string
	for _, v := range r.Variants {
		if !audited(v) {
			continue
		}
		cells := []string{v.Name}
		for _, m := range measures {
			cells = append(cells, fmt.Sprintf("%d of %d (sum %d)", v.Tally.Broke[m], v.Tally.Judged, v.Tally.Sums[m]))
		}
		rows = append(rows, "| "+strings.Join(cells, " | ")+" |")
	}
	if len(rows) == 0 {
		return ""
	}
	head := []string{"variant"}
	for _, m := range measures {
		head = append(head, string(m))
	}
	return "\n### Audited resource: judged trials where each count was > 0\n\n| " + strings.Join(head, " | ") + " |\n|" +
		strings.Repeat("---|", len(head)) + "\n" + strings.Join(rows, "\n") + "\n"
}

func (d Distribution) short() string {
	if d.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f/%.1f/%.1f", d.P50, d.P99, d.Max)
}

func (d Distribution) median() string {
	if d.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", d.P50)
}
