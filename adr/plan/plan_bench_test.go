package plan

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/adr"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/resultsdir"
)

// benchOf is the plan's step writing into out/dir; nil when there is none.
func benchOf(p *Plan, dir string) *Step {
	for i := range p.Steps {
		if p.Steps[i].Out == "m/"+dir {
			return &p.Steps[i]
		}
	}
	return nil
}

// A lock every ten seconds (0.1/s, 5 s holds) would take 2 h 47 min a cell at its own
// rate: the plan times 170 copies of its one key at 17/s for 59 s instead (170 keep
// about 128 requests held or waiting: 17/s x 7.5 s in flight at rho 0.5), and checks
// the key-copies model at 340 copies; its 5 s holds let four strategies run at once,
// and the whole plan fits in half an hour.
func TestPlanTimesASlowWorkloadThroughCopiesOfItsKeys(t *testing.T) {
	w, err := workload.Load("../../docs/adr-workload-nightly.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := MakePlan(w, "w.yaml", &adr.Inputs{}, "m")
	bench, check := benchOf(p, "bench"), benchOf(p, "bench-check")
	if bench == nil || check == nil {
		t.Fatalf("no copies step or no check step:\n%s", p.Text())
	}
	for _, c := range []struct {
		step *Step
		want string
	}{
		{bench, "--keys 170 --key-dist uniform --hold 5s --ttl 1m0s --load open --rate 17 "},
		{check, "--keys 340 --key-dist uniform --hold 5s --ttl 1m0s --load open --rate 34 "},
	} {
		if !strings.Contains(c.step.Command, c.want) || !strings.Contains(c.step.Command, " --beside 4 ") {
			t.Errorf("%s\nwant %s and --beside 4", c.step.Command, c.want)
		}
	}
	if total, unknown := p.Total(); total > 30*time.Minute || unknown > 0 {
		t.Errorf("the plan takes %v (%d steps not timed)", total, unknown)
	}
	// With both runs given, nothing is timed again.
	in := &adr.Inputs{Runs: []*resultsdir.Run{{}}}
	for _, s := range planStrategies(w) {
		for _, copies := range []int{170, 340} {
			in.Runs[0].Cells = append(in.Runs[0].Cells, resultsdir.Cell{Name: s, Strategy: s, Keys: copies,
				KeyDist: "uniform", Hold: resultsdir.Duration(w.HoldD), TTL: resultsdir.Duration(w.TTLD),
				Load: resultsdir.LoadMode{Mode: "open", Arrival: "poisson", TargetRate: 0.1 * float64(copies)}})
		}
	}
	if again := MakePlan(w, "w.yaml", in, "m"); benchOf(again, "bench") != nil || benchOf(again, "bench-check") != nil {
		t.Errorf("cells at both copy counts given, yet planned again:\n%s", again.Text())
	}
}

// The efficiency example's own rate fills its samples in 100 s: one copy, its one key,
// no check; the correctness one draws its keys by its zipf law.
func TestPlanTimesAFastWorkloadAsItIs(t *testing.T) {
	eff := MakePlan(lockable(t, "../../docs/adr-workload.yaml"), "w.yaml", &adr.Inputs{}, "m")
	if b := benchOf(eff, "bench"); b == nil || !strings.Contains(b.Command, "--keys 1 --hold 50ms") ||
		strings.Contains(b.Command, "--beside") || benchOf(eff, "bench-check") != nil {
		t.Errorf("efficiency:\n%s", eff.Text())
	}
	cor := MakePlan(lockable(t, "../../docs/adr-workload-correctness.yaml"), "w.yaml", &adr.Inputs{}, "m")
	if b := benchOf(cor, "bench"); b == nil || !strings.Contains(b.Command, "--keys 10000 --key-dist zipf:1 --hold") {
		t.Errorf("correctness:\n%s", cor.Text())
	}
}

// A workload whose holds spread exponentially has its cost cells draw them so.
func TestPlanDrawsTheWorkloadsHolds(t *testing.T) {
	w := lockable(t, "../../docs/adr-workload.yaml")
	w.HoldDist = "exp"
	w.SLO.Budget, w.Budget.Max = time.Second, "1s" // exponential holds' floor passes 200 ms
	if why := adr.LocksBeyondFloor(w); why != "" {
		t.Fatal(why)
	}
	if b := benchOf(MakePlan(w, "w.yaml", &adr.Inputs{}, "m"), "bench"); b == nil ||
		!strings.Contains(b.Command, "--hold 50ms --ttl 30s --hold-dist exp --load open") {
		t.Errorf("the cost cells do not draw exponential holds: %+v", b)
	}
}

// Any slow workload plans within half an hour: rates down to one lock a minute, TTLs up
// to five minutes, holds of one to ten seconds, on one key or a hundred.
func TestASlowWorkloadPlansWithinHalfAnHour(t *testing.T) {
	base, err := os.ReadFile("../../docs/adr-workload-nightly.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ rate, hold, ttl, keys string }{
		{"0.0167", "1s", "3m", "1"}, {"0.0167", "5s", "5m", "1"}, {"0.0167", "10s", "5m", "1"},
		{"0.0167", "10s", "5m", "100"}, {"0.1", "5s", "1m", "1"}, {"1", "5s", "1m", "10"}, {"0.001", "5s", "5m", "1"},
	} {
		text := strings.NewReplacer("lock_rate_per_second: 0.1", "lock_rate_per_second: "+c.rate, "hold: 5s",
			"hold: "+c.hold, "ttl: 60s", "ttl: "+c.ttl, "count: 1", "count: "+c.keys).Replace(string(base))
		w, err := workload.Parse("w.yaml", []byte(text))
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		p := MakePlan(w, "w.yaml", &adr.Inputs{}, "m")
		if total, unknown := p.Total(); total > 30*time.Minute || unknown > 0 {
			t.Errorf("%+v: the plan takes %v (%d steps not timed)", c, total, unknown)
		}
	}
}
