package safety

import (
	"strings"
	"testing"
)

func TestTableListsSmallestBreakingValues(t *testing.T) {
	r := &Report{Scenario: "redlock-clock-jump", Variants: []*Variant{
		{Name: "k=3/J=20ms"},
		{Name: "k=3/smallest-J", Params: map[string]string{"measured_smallest": "13.67ms", "model_smallest": "11.33ms"}},
	}}
	table := r.Table()
	if !strings.Contains(table, "Smallest breaking values") || !strings.Contains(table, "| k=3/smallest-J | 13.67ms | 11.33ms |") {
		t.Errorf("no smallest-breaking section with the measured and model values:\n%s", table)
	}
	r.Variants = r.Variants[:1]
	if strings.Contains(r.Table(), "Smallest breaking") {
		t.Error("a report without a search got a smallest-breaking section")
	}
}
