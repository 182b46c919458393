package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lockbench/lockbench/adr"
	"github.com/lockbench/lockbench/adr/plan"
	"github.com/lockbench/lockbench/resultsdir"
)

// dispatch is run, set at init: adr --measure runs the plan's lockbench commands
// through it (a direct reference would make an initialization cycle with commands).
var dispatch func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

func init() { dispatch = run }

// measured is what running a plan did: the folders complete (run now or kept from
// an earlier run), and the steps left for the time budget.
type measured struct {
	ran, kept []string
	left      []plan.Step
}

// measurePlan runs the plan's commands in order through the run and safety commands
// themselves: a complete folder is kept, an interrupted one carried on with --resume.
// With a budget above 0, a step whose estimate would take the time spent past it is
// left, and a later, shorter one may still run (the budget is checked between steps,
// not within one). A failing command stops it, naming the step.
func measurePlan(p *plan.Plan, budget time.Duration, stdout, stderr io.Writer) (measured, error) {
	var m measured
	start := time.Now()
	i := 0 // numbered as --plan numbers them: the steps with a command
	for _, st := range p.Steps {
		if len(st.Args) == 0 {
			continue
		}
		i++
		folder, err := resultsdir.Inspect(st.Out)
		if err != nil {
			return m, err
		}
		state := folder.State
		if was := folder.OtherParams(st.Args); was != "" { // neither kept nor resumed as if it were this step's
			return m, fmt.Errorf("step %d: %s (%s) was made with %s, and the plan now runs %s: move it away (or give a "+
				"complete one to --results to keep reading it) and run again", i, st.Out, state, was, st.Command)
		}
		if state == "complete" {
			fmt.Fprintf(stdout, "step %d: kept %s (complete)\n", i, st.Out)
			m.kept = append(m.kept, st.Out)
			continue
		}
		if budget > 0 && time.Since(start)+st.Estimate > budget {
			m.left = append(m.left, st)
			continue
		}
		args := st.Args
		if state == "partial" {
			args = []string{st.Args[0], "--resume", st.Out}
		}
		fmt.Fprintf(stdout, "step %d: lockbench %s\n", i, strings.Join(args, " "))
		if code := dispatch(args, strings.NewReader(""), stdout, stderr); code != 0 {
			return m, fmt.Errorf("step %d (%s) exited %d; run the same adr --measure again to carry on", i, st.Out, code)
		}
		m.ran = append(m.ran, st.Out)
	}
	return m, nil
}

// runADRMeasure plans, measures within the budget, and writes the ADR from the given
// results and every complete folder of the plan to DIR/adr.md.
func runADRMeasure(workloadFile string, dirs []string, out string, budget time.Duration, date string, stdout,
	stderr io.Writer) error {
	w, _, err := planInputs(workloadFile, nil) // the workload alone: the folders are read once, below
	if err != nil {
		return err
	}
	// What an earlier --measure into out completed is read even where the given results
	// now cover its step, so that the plan drops it: else its folder went unread.
	earlier, err := plan.MakePlan(w, workloadFile, &adr.Inputs{}, out).Completed()
	if err != nil {
		return err
	}
	w, in, err := planInputs(workloadFile, append(append([]string{}, dirs...), earlier...))
	if err != nil {
		return err
	}
	p := plan.MakePlan(w, workloadFile, in, out)
	p.Beside(earlier)
	cmd := fmt.Sprintf("lockbench adr --workload %s --measure --out %s", workloadFile, out)
	if len(dirs) > 0 {
		cmd += " --results " + strings.Join(dirs, ",")
	}
	if budget > 0 {
		cmd += " --time-budget " + budget.String()
	}
	return measureThenWrite(p, workloadFile, append(append([]string{}, dirs...), earlier...), out, budget, date, cmd,
		stdout, stderr)
}

// measureThenWrite runs the plan and writes the ADR, saying what is left.
func measureThenWrite(p *plan.Plan, workloadFile string, dirs []string, out string, budget time.Duration, date,
	cmd string, stdout, stderr io.Writer) error {
	m, err := measurePlan(p, budget, stdout, stderr)
	if err != nil {
		return err
	}
	var results []string // each folder once: read twice, its trials would count twice
	for _, d := range slices.Concat(dirs, m.kept, m.ran) {
		if !slices.Contains(results, d) {
			results = append(results, d)
		}
	}
	// A plan with nothing to run (the workload decides alone) writes from no results.
	if len(results) == 0 && len(m.left) > 0 {
		return fmt.Errorf("nothing measured within the time budget %v, and no --results given: no ADR to write", budget)
	}
	path := filepath.Join(out, "adr.md")
	d, err := adr.Generate(adr.Request{Workload: workloadFile, Results: results, Out: path, Date: date, Command: cmd,
		NoneNeeded: len(p.Steps) == 0})
	if err != nil {
		return err
	}
	chosen := "none yet (no option is shown to meet the purpose)"
	if d.Chosen == nil && d.Floor.Misses() && len(p.Steps) == 0 {
		chosen = "none (no lock can meet the latency budget: its queueing floor)"
	}
	if d.Chosen != nil {
		chosen = d.Chosen.Name
	}
	fmt.Fprintf(stdout, "wrote %s from %d folders (%d run now, %d given or kept): %d options, chosen: %s\n", path,
		len(results), len(m.ran), len(results)-len(m.ran), len(d.Options), chosen)
	if len(m.left) > 0 {
		fmt.Fprintf(stdout, "left for the time budget %v (run adr --measure again with a larger one to carry on):\n", budget)
		for _, st := range m.left {
			fmt.Fprintf(stdout, "  %s  # estimated %v\n", st.Command, st.Estimate.Round(time.Second))
		}
	}
	return nil
}
