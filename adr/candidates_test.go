package adr

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/adr/workload"
)

// A workload that names its candidates weighs those locks only, beside the ways with
// no lock; where the floor rules every lock out, the locks it lists are the candidates.
func TestTheWorkloadsCandidatesAreTheLocksWeighed(t *testing.T) {
	d := decideSynthetic(t, "testdata/correctness.yaml")
	w := withViolationBudget(loadWorkload(t, "testdata/correctness.yaml"), 1.2)
	w.Candidates = []string{"etcd"}
	var names []string
	for _, o := range Decide(w, d.Inputs).Options {
		names = append(names, o.Name)
	}
	for _, want := range []string{"etcd", "etcd + fence", "cas-version (no lock)"} {
		if !slices.Contains(names, want) {
			t.Errorf("options %v lack %s", names, want)
		}
	}
	for _, not := range []string{"single", "redlock", "sentinel + fence"} {
		if slices.Contains(names, not) {
			t.Errorf("options %v weigh %s, not a candidate", names, not)
		}
	}
	floored := loadWorkload(t, "../docs/adr-workload.yaml")
	floored.Candidates = []string{"rueidislock", "etcd"}
	names = nil
	for _, o := range Decide(floored, &Inputs{}).Options {
		names = append(names, o.Name)
	}
	if !slices.Equal(names, []string{"etcd", "rueidislock"}) {
		t.Errorf("the floor rules out %v, want the candidates etcd, rueidislock", names)
	}
}

// A candidate lockbench does not have, or one that takes no lock, is bad input naming
// the field.
func TestABadCandidateIsAFieldError(t *testing.T) {
	base, err := os.ReadFile("testdata/correctness.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ list, want string }{
		{"[nosuch]", `"nosuch" is no strategy of lockbench's`},
		{"[atomic]", `"atomic" takes no lock`},
		{"[etcd, etcd]", `"etcd" is empty or named twice`},
	} {
		path := filepath.Join(t.TempDir(), "w.yaml")
		if err := os.WriteFile(path, append([]byte("candidates: "+c.list+"\n"), base...), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadWorkload(path)
		var fe workload.FieldError
		if !errors.As(err, &fe) || fe.Field != "candidates" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("candidates %s: %v, want a FieldError on candidates saying %s", c.list, err, c.want)
		}
	}
}
