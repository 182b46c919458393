package flagrecord

import (
	"flag"
	"testing"
)

// A recorded flag the command line gave keeps the given value; the others are set
// and said as typed, a true boolean without its value.
func TestSetNotGivenKeepsTheGivenAndTypesTheRest(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	seed := fs.Int("seed", 1, "")
	trials := fs.Int("trials", 20, "")
	quick := fs.Bool("quick", false, "")
	if err := fs.Parse([]string{"--seed", "9"}); err != nil {
		t.Fatal(err)
	}
	typed, err := SetNotGiven(fs, "dir", map[string][]string{"seed": {"3"}, "trials": {"5"}, "quick": {"true"}})
	if err != nil {
		t.Fatal(err)
	}
	if *seed != 9 || *trials != 5 || !*quick {
		t.Errorf("seed %d trials %d quick %v: want 9 (given), 5 and true (recorded)", *seed, *trials, *quick)
	}
	if got, want := Join(typed), "--quick --trials 5"; got != want {
		t.Errorf("typed %q, want %q", got, want)
	}
	if _, err := SetNotGiven(fs, "dir", map[string][]string{"trials": {"many"}}); err != nil {
		t.Errorf("a given flag's recorded value is not set, so not checked: %v", err)
	}
}
