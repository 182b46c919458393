package adr

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/results"
)

// Every number the synthetic records count traces to a rate of its own condition, a
// backed demonstration or a checked model.
func TestEveryCountedNumberOfTheSyntheticRecordsTraces(t *testing.T) {
	for _, file := range []string{"testdata/efficiency.yaml", "testdata/correctness.yaml"} {
		d := decideSynthetic(t, file)
		got, counted := Untraced(d)
		if len(got) > 0 || counted == 0 {
			t.Errorf("%s: %d of %d untraced:\n%s", file, len(got), counted, strings.Join(got, "\n"))
		}
	}
}

// Histories that must fail: a number modelled by a crash model whose check missed, one
// modelled by a model the record lacks, a demonstration no claim backs, a rate pooled
// over two conditions, and a rate no model sizes.
func TestUntracedNumbersAreFound(t *testing.T) {
	w := loadWorkload(t, "testdata/efficiency.yaml")
	failing := &CrashModel{Check: CrashCheck{Rows: []CrashCheckRow{{Variant: "none-delay-0ms", Predicted: 0.95,
		Measured: results.ProportionOf(8, 20)}}}}
	sized := &SizeModel{Name: "pause against the lease left", Share: 1}
	counted := Expected{1, 1, 1}
	for _, c := range []struct {
		name string
		e    Exposure
		want string
	}{
		{"a failed model", Exposure{Kind: backend.FailoverFault, PerYear: 1, Crash: failing,
			Mutex: &Measured{Scenario: "failover-loss", Variants: []string{"none-delay-0ms"}, Modelled: true,
				ModelName: "crash-failover", Year: counted}}, "failed its check"},
		{"a model it lacks", Exposure{Kind: backend.FailoverFault, PerYear: 1,
			Mutex: &Measured{Scenario: "failover-loss", Variants: []string{"none-delay-0ms"}, Modelled: true,
				ModelName: "crash-failover", Year: counted}}, "does not have"},
		{"an unbacked demonstration", Exposure{Kind: backend.ClientPauseFault, PerYear: 1, Model: sized,
			Mutex: &Measured{Scenario: "pause-past-ttl", Variants: []string{"single/no-watchdog"}, By: results.Violations,
				Demo: Always, Year: counted}}, "is not shown"},
		{"a pooled rate", Exposure{Kind: backend.ClientPauseFault, PerYear: 1, Model: sized,
			Mutex: &Measured{Scenario: "x", Variants: []string{"a", "b"}, Year: counted}}, "pooled over 2"},
		{"an unsized rate", Exposure{Kind: backend.FailoverFault, PerYear: 1,
			Mutex: &Measured{Scenario: "x", Variants: []string{"a"}, Year: counted}}, "no size model"},
	} {
		o := &Option{Name: "single", Kind: Lock, Probe: "single", Faults: []Exposure{c.e}}
		d := &Decision{Workload: w, Inputs: &Inputs{}, Options: []*Option{o}}
		untraced, _ := Untraced(d)
		if got := strings.Join(untraced, "; "); !strings.Contains(got, c.want) {
			t.Errorf("%s: untraced %q, want %q", c.name, got, c.want)
		}
	}
	// The same exposures counted as missing evidence are in no total: nothing to trace.
	e := Exposure{Kind: backend.FailoverFault, PerYear: 1, Mutex: &Measured{Scenario: "x", Variants: []string{"a"},
		Uncounted: "not sized: ..."}}
	d := &Decision{Workload: w, Inputs: &Inputs{Safety: adrtest.HandReport("x")},
		Options: []*Option{{Name: "single", Kind: Lock, Faults: []Exposure{e}}}}
	if got, counted := Untraced(d); len(got) > 0 || counted > 0 {
		t.Errorf("missing evidence traced: %v", got)
	}
}

// inputsOf reads every results folder directly under dir, and extra; none is no error
// (a record the floor decides ran nothing).
func inputsOf(t *testing.T, dir string, extra ...string) *Inputs {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "results.json"))
	folders := extra
	for _, f := range files {
		folders = append(folders, filepath.Dir(f))
	}
	if len(folders) == 0 {
		return &Inputs{}
	}
	in, err := LoadInputs(folders)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// The shipped records, decided again from their folders: every number they count
// traces (the correctness one counts its lock-free ways' pause and redelivery).
func TestEveryCountedNumberOfTheShippedRecordsTraces(t *testing.T) {
	for _, c := range []struct{ workload, dir string }{
		{"../docs/adr-workload.yaml", "../findings/adr-efficiency-2026-12-06"},
		{"../docs/adr-workload-correctness.yaml", "../findings/adr-correctness-2026-12-06"},
	} {
		got, counted := Untraced(Decide(loadWorkload(t, c.workload), inputsOf(t, c.dir)))
		if len(got) > 0 {
			t.Errorf("%s: %d of %d untraced:\n%s", c.dir, len(got), counted, strings.Join(got, "\n"))
		}
		t.Logf("%s: %d counted numbers, each traced", c.dir, counted)
	}
}

// The earlier whole records' folders, every lock measured, decided at a 200 ms budget
// (at their own the queueing floor rules every lock out and nothing is weighed): every
// number they count traces too.
func TestEveryCountedNumberOfTheEarlierWholeRecordsTraces(t *testing.T) {
	for _, c := range []struct{ workload, dir string }{
		{"../docs/adr-workload.yaml", "../findings/adr-efficiency"},
		{"../docs/adr-workload-correctness.yaml", "../findings/adr-correctness"},
	} {
		w := loadWorkload(t, c.workload)
		w.SLO.Budget = 200 * time.Millisecond
		got, counted := Untraced(Decide(w, inputsOf(t, c.dir, "../findings/redlock-quorum")))
		if len(got) > 0 || counted == 0 {
			t.Errorf("%s: %d of %d untraced:\n%s", c.dir, len(got), counted, strings.Join(got, "\n"))
		}
		t.Logf("%s: %d counted numbers, each traced", c.dir, counted)
	}
}
