package plotstest

import (
	"testing"

	"github.com/lockbench/lockbench/plots"
)

// failures counts what a check reports instead of failing the test that runs it.
type failures struct {
	testing.TB
	n int
}

func (f *failures) Helper()               {}
func (f *failures) Errorf(string, ...any) { f.n++ }
func (f *failures) Fatalf(string, ...any) { f.n++ }
func (f *failures) Fatal(...any)          { f.n++ }
func (f *failures) Logf(string, ...any)   {}

func TestAssertOwnLooksFailsTwoEntriesDrawnAlikeOrOneWithoutALook(t *testing.T) {
	a, b := plots.LookOf(0), plots.LookOf(1)
	for _, c := range []struct {
		name  string
		f     plots.Figure
		fails bool
	}{
		{"apart", plots.Figure{Name: "apart", Series: []string{"x", "y"}, Looks: []plots.Look{a, b}}, false},
		{"alike", plots.Figure{Name: "alike", Series: []string{"x", "y"}, Looks: []plots.Look{a, a}}, true},
		{"no look", plots.Figure{Name: "no look", Series: []string{"x", "y"}, Looks: []plots.Look{a}}, true},
	} {
		got := &failures{TB: t}
		AssertOwnLooks(got, c.f)
		if (got.n > 0) != c.fails {
			t.Errorf("%s: %d failures, want failing %v", c.name, got.n, c.fails)
		}
	}
}
