package results

import (
	"fmt"
	"strconv"
	"strings"
)

// ClaimsTitle heads the claims table in results.md and in the README's findings block.
const ClaimsTitle = "## The write-up's claims, tested"

// ClaimsTable is the write-up's claims, one row each, with the test of each hypothesis,
// what the reports showed and the verdict; a claim none of whose variants ran has no
// row. "" when the reports hold none.
func ClaimsTable(reports []*Report) string {
	var b strings.Builder
	rows := 0
	for _, c := range WriteupClaims {
		res := c.Judge(reports)
		if !res.Ran {
			continue
		}
		if rows == 0 {
			b.WriteString(ClaimsTitle + "\n\n")
			b.WriteString(claimsPreamble)
			b.WriteString("| step | claim | scenario: measure | hypotheses: what was seen | verdict |\n|---|---|---|---|---|\n")
		}
		rows++
		var cells []string
		for _, ch := range res.Checks {
			cells = append(cells, ch.cell())
		}
		fmt.Fprintf(&b, "| %s | %s | `%s`: %s | %s | **%s** |\n", c.Step, c.Claim, c.Scenario, c.By,
			strings.Join(cells, "<br>"), res.Verdict)
	}
	if rows > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

var claimsPreamble = "Each claim is one or more hypotheses on one measure, each with its test; the claim is " +
	"supported only when every hypothesis is, and contradicted when one is. " +
	"A forced interleaving is a demonstration, not a rate: it breaks in every judged trial (always) or in none (never), " +
	"and one counter-example contradicts it. " +
	"A break that happens by chance is shown by one judged trial, each judged only with the proof of its fault. " +
	"\"Fewer\" is Fisher's exact test, one-sided, at each condition apart (a delay, a strategy), with Holm across the " +
	"conditions at 0.05; breaking more often, significantly, contradicts it. " +
	"Conditions are never pooled; counts are k/n judged (of the trials run). " +
	"A hypothesis is not shown while a variant it names did not run or was judged fewer than " + strconv.Itoa(MinJudged) +
	" times (an occurrence excepted: one judged break is its proof).\n\n"

// cell is one hypothesis in the table: what it says, how it was tested, what it saw.
func (r CheckResult) cell() string {
	ch := r.Check
	says := ch.Says
	if says == "" {
		says = string(ch.Kind) + ": " + strings.Join(ch.Variants, ", ")
	}
	out := fmt.Sprintf("*%s* (%s) %s", ch.Role, r.Verdict, says)
	if r.Seen != "" {
		out += ". " + r.Seen
	}
	if r.Why != "" {
		out += ". " + r.Why
	}
	return out
}
