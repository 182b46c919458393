package lab

import (
	"fmt"
	"os"
	"time"

	"github.com/lockbench/lockbench/safety/results"
)

// progress is the report of the scenario now running, filled as its trials finish:
// what an interrupted run still writes, and where a resumed one finds the trials it
// replays instead of running them again.
type progress struct {
	report  *results.Report
	started time.Time
	earlier float64         // seconds spent by the runs this one resumes
	resumed *results.Report // what an interrupted run of the same command left, or nil
}

// begin starts the progress of a run of the scenario running, resuming from
// e.Resume's report of it.
func (e *Env) begin() *progress {
	p := &progress{report: e.NewReport(), started: time.Now()}
	// Trials drew from PCG(run seed, trial seed): another run seed, other trials.
	if r := e.Resume[e.Scenario()]; r != nil && r.Seed == e.Seed {
		p.resumed, p.earlier = r, r.Seconds
	}
	e.progress = p
	return p
}

// seconds is the scenario's time so far, the interrupted runs' included.
func (p *progress) seconds() float64 { return p.earlier + time.Since(p.started).Seconds() }

// track adds v to the report, once, when its first trial is in.
func (p *progress) track(v *results.Variant) {
	for _, known := range p.report.Variants {
		if known == v {
			return
		}
	}
	p.report.Variants = append(p.report.Variants, v)
}

// finished is trial n of variant as the interrupted run recorded it, if it finished
// there with the same random source.
func (p *progress) finished(variant string, n int, seed uint64) (results.Trial, bool) {
	if p == nil || p.resumed == nil {
		return results.Trial{}, false
	}
	v := p.resumed.Variant(variant)
	if v == nil {
		return results.Trial{}, false
	}
	for _, t := range v.Trials {
		if t.N == n && t.Seed == seed {
			return t, true
		}
	}
	return results.Trial{}, false
}

// trialDone puts v in the running report and hands the report to e.OnTrial.
func (e *Env) trialDone(v *results.Variant) {
	p := e.progress
	if p == nil {
		return
	}
	p.track(v)
	if e.OnTrial != nil {
		p.report.Finish(p.seconds())
		e.OnTrial(p.report)
	}
}

// replay adds a trial the interrupted run finished to v, as RunTrial added it then:
// its notes, and its porcupine page if the page is still there.
func (e *Env) replay(scenario string, v *results.Variant, rec results.Trial) {
	if rec.Counts[results.NotLinearizable] > 0 {
		if path := e.vizPath(scenario, v.Name, rec.N); path != "" {
			if _, err := os.Stat(path); err == nil {
				v.Visualizations = append(v.Visualizations, path)
			}
		}
	}
	e.record(v, rec)
	e.progress.track(v)
	e.Log("%s/%s trial %d: %s, kept from the interrupted run", scenario, v.Name, rec.N, rec.Outcome)
}

// record adds rec to v with the note an unjudged trial leaves.
func (e *Env) record(v *results.Variant, rec results.Trial) {
	v.Add(rec)
	if rec.Outcome != results.Judged {
		v.Note(fmt.Sprintf("trial %d: %s: %s", rec.N, rec.Outcome, rec.Message))
	}
}
