package results

import (
	"strings"
	"testing"
)

func claimVariant(name string, m Measure, judged, broke int) *Variant {
	return &Variant{Name: name, Measure: m, Tally: Tally{Judged: judged, Trials: judged, Broke: map[Measure]int{m: broke}}}
}

func TestClaimsTableCountsTheNamedVariantsOnly(t *testing.T) {
	reports := []*Report{
		{Scenario: "unsafe-release", Variants: []*Variant{
			claimVariant("plain-del", Violations, 20, 20), claimVariant("lua-release", Violations, 20, 0)}},
		{Scenario: "pause-past-ttl", Variants: []*Variant{
			claimVariant("single/no-watchdog", Violations, 10, 10), claimVariant("etcd/watchdog", Violations, 10, 9),
			claimVariant("single/no-watchdog-fenced", StaleAccepted, 10, 0), claimVariant("single/watchdog-slow-work", Violations, 10, 0)}},
	}
	md := ClaimsTable(reports)
	row := func(scenario string) string {
		for _, line := range strings.Split(md, "\n") {
			if strings.Contains(line, "`"+scenario+"`") {
				return line
			}
		}
		t.Fatalf("no row for %s:\n%s", scenario, md)
		return ""
	}
	if r := row("unsafe-release"); !strings.Contains(r, "20 of 20 judged") || !strings.Contains(r, "0 of 20 judged") {
		t.Errorf("unsafe-release: %s", r)
	}
	// The slow-work control is not a break: 19 of 20, not 19 of 30.
	if r := row("pause-past-ttl"); !strings.Contains(r, "headline: 19 of 20 judged") || !strings.Contains(r, "stale_writes_accepted: 0 of 10 judged") {
		t.Errorf("pause-past-ttl: %s", r)
	}
	if strings.Contains(md, "`setnx-expire`") {
		t.Error("a claim whose scenario did not run got a row")
	}
	if ClaimsTable(nil) != "" {
		t.Error("no reports, yet a table")
	}
}
