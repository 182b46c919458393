package safety

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Report is what one scenario run found; results.json holds a list of them.
type Report struct {
	Scenario         string     `json:"scenario"`
	Summary          string     `json:"summary"`
	Seed             int64      `json:"seed"`
	TrialsPerVariant int        `json:"trials_per_variant"`
	Params           Params     `json:"params,omitempty"`
	Variants         []*Variant `json:"variants"`
	// Series are ready for plots: one line per series, x against y.
	Series []Series `json:"series,omitempty"`
}

// Expectation is what the issue predicts for a variant; the Go tests assert it.
type Expectation string

const (
	ExpectBreaks Expectation = "breaks" // violations > 0
	ExpectHolds  Expectation = "holds"  // no violations
	// ExpectMeasured is a point of a sweep: the issue predicts no direction there.
	ExpectMeasured Expectation = "measured"
)

// Variant is one configuration of a scenario and what its trials found.
type Variant struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Params      map[string]string `json:"params,omitempty"`
	Expect      Expectation       `json:"expect"`
	// Measure names the count Expect is about (see Value): violations, lost_locks...
	Measure string `json:"measure"`

	Trials int `json:"trials"` // run
	// FaultNotProduced counts trials whose fault could not be caused (no promotion):
	// they are neither safe nor unsafe, and are not judged.
	FaultNotProduced int `json:"fault_not_produced"`
	// NotGranted counts trials where the first lock was refused (WAIT too few acks):
	// nothing could be lost, and the refusal is the safety mechanism working.
	NotGranted int `json:"not_granted"`
	Judged     int `json:"judged"` // trials judged by the checkers

	Violations          int `json:"violations"`            // overlapping pairs of holders, all trials
	TrialsWithViolation int `json:"trials_with_violation"` // trials with at least one
	LostLocks           int `json:"lost_locks"`
	Orphans             int `json:"orphaned_locks"`
	ReissuedTokens      int `json:"reissued_tokens"`
	FenceViolations     int `json:"fence_violations"` // accepted writes below an accepted token
	StaleAccepted       int `json:"stale_writes_accepted"`
	StaleRejected       int `json:"stale_writes_rejected"`
	HonestRejected      int `json:"honest_writes_rejected,omitempty"`
	Diverged            int `json:"diverged_resources,omitempty"`
	NotLinearizable     int `json:"not_linearizable"`
	// SecondGranted counts trials where the client that came after the fault got the
	// lock: where the first holder had stopped, this shows the lock stayed usable.
	SecondGranted int `json:"second_client_granted"`

	// OverlapMs are the overlap durations of every violation; WindowMs is the
	// scenario's own window (zombie master accepting writes, for one).
	OverlapMs Distribution `json:"overlap_ms"`
	WindowMs  Distribution `json:"window_ms"`
	WindowIs  string       `json:"window_is,omitempty"`

	Visualizations []string `json:"visualizations,omitempty"`
	Notes          []string `json:"notes,omitempty"`
	// PerTrial keeps each judged trial's inputs and outcome, for plots by any axis.
	PerTrial []TrialOutcome `json:"per_trial,omitempty"`
}

// TrialOutcome is one trial, flat.
type TrialOutcome struct {
	Trial      int                `json:"trial"`
	Inputs     map[string]float64 `json:"inputs,omitempty"` // e.g. delay_ms, lag_ms
	Outcome    string             `json:"outcome"`          // judged, fault-not-produced, not-granted
	Violations int                `json:"violations"`
	LostLocks  int                `json:"lost_locks"`
}

// Distribution is a sample of milliseconds with its percentiles.
type Distribution struct {
	N      int       `json:"n"`
	P50    float64   `json:"p50"`
	P90    float64   `json:"p90"`
	P99    float64   `json:"p99"`
	Max    float64   `json:"max"`
	Values []float64 `json:"values,omitempty"`
}

func (d *Distribution) add(ms float64) {
	d.Values = append(d.Values, ms)
	s := append([]float64(nil), d.Values...)
	sort.Float64s(s)
	d.N = len(s)
	d.P50, d.P90, d.P99, d.Max = quantile(s, 0.5), quantile(s, 0.9), quantile(s, 0.99), s[len(s)-1]
}

// quantile is the nearest-rank quantile of sorted s.
func quantile(s []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(s)))) - 1
	if i < 0 {
		i = 0
	}
	return s[i]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Series is one line of a figure.
type Series struct {
	Name   string  `json:"name"`
	X      string  `json:"x"` // what x measures, with its unit
	Y      string  `json:"y"`
	Points []Point `json:"points"`
}

// Point is y at x, from N judged trials.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	N int     `json:"n"`
}

// Verdict is every checker's reading of one trial's history.
type Verdict struct {
	Mutex  MutexReport
	Fence  FenceReport
	Tokens TokenReport
	Lost   LostReport
	Orphan OrphanReport
	Linear LinearReport
}

// linearTimeout bounds porcupine per history; trial histories are tens of events.
const linearTimeout = 10 * time.Second

// Judge runs every checker on one trial's history. With a non-empty vizDir, an
// Illegal history gets porcupine's page there, named after the trial.
func Judge(h History, vizDir, vizName string) (Verdict, error) {
	v := Verdict{
		Mutex:  CheckMutualExclusion(h),
		Fence:  CheckFencing(h),
		Tokens: CheckTokens(h),
		Lost:   CheckLostLocks(h),
		Orphan: CheckOrphans(h),
	}
	path := ""
	if vizDir != "" {
		path = filepath.Join(vizDir, vizName+".html")
	}
	var err error
	v.Linear, err = CheckLinearizable(h, linearTimeout, path)
	return v, err
}

// record adds a judged trial's verdict to the variant.
func (v *Variant) record(trial int, inputs map[string]float64, verdict Verdict) {
	v.Trials++
	v.Judged++
	v.Violations += verdict.Mutex.Violations
	if verdict.Mutex.Violations > 0 {
		v.TrialsWithViolation++
	}
	for _, o := range verdict.Mutex.Overlaps {
		v.OverlapMs.add(ms(o.Duration))
	}
	v.LostLocks += verdict.Lost.Lost
	v.Orphans += verdict.Orphan.Orphans
	v.ReissuedTokens += verdict.Tokens.Reissued
	v.FenceViolations += verdict.Fence.Violations
	v.StaleAccepted += verdict.Fence.StaleAccepted
	v.StaleRejected += verdict.Fence.StaleRejected
	if verdict.Linear.Result == "Illegal" {
		v.NotLinearizable++
	}
	if verdict.Linear.Visualization != "" {
		v.Visualizations = append(v.Visualizations, verdict.Linear.Visualization)
	}
	v.PerTrial = append(v.PerTrial, TrialOutcome{Trial: trial, Inputs: inputs, Outcome: "judged", Violations: verdict.Mutex.Violations, LostLocks: verdict.Lost.Lost})
}

// skip adds a trial that could not be judged, saying why.
func (v *Variant) skip(trial int, inputs map[string]float64, outcome, note string) {
	v.Trials++
	switch outcome {
	case "fault-not-produced":
		v.FaultNotProduced++
	case "not-granted":
		v.NotGranted++
	}
	if note != "" && len(v.Notes) < 10 { // the first few reasons are enough to act on
		v.Notes = append(v.Notes, fmt.Sprintf("trial %d: %s", trial, note))
	}
	v.PerTrial = append(v.PerTrial, TrialOutcome{Trial: trial, Inputs: inputs, Outcome: outcome})
}

// Table renders the report as a Markdown table, one row per variant.
func (r *Report) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s (seed %d, %d trials per variant)\n\n%s\n\n", r.Scenario, r.Seed, r.TrialsPerVariant, r.Summary)
	b.WriteString("| variant | expect | trials | judged | no fault | not granted | violations | lost locks | orphans | reissued tokens | stale accepted | stale rejected | not linearizable | overlap ms p50/p99/max | window ms p50/p99/max |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, v := range r.Variants {
		fmt.Fprintf(&b, "| %s | %s %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s |\n",
			v.Name, v.Measure, v.Expect, v.Trials, v.Judged, v.FaultNotProduced, v.NotGranted, v.Violations, v.LostLocks, v.Orphans,
			v.ReissuedTokens, v.StaleAccepted, v.StaleRejected, v.NotLinearizable, v.OverlapMs.short(), v.WindowMs.short())
	}
	b.WriteString(r.smallestBreaking())
	for _, v := range r.Variants {
		extra := ""
		if v.HonestRejected > 0 || v.Diverged > 0 {
			extra = fmt.Sprintf(" Honest writes rejected: %d; resources diverged: %d.", v.HonestRejected, v.Diverged)
		}
		if v.WindowIs != "" {
			extra += " Window: " + v.WindowIs + "."
		}
		fmt.Fprintf(&b, "\n- **%s**: %s%s", v.Name, v.Description, extra)
		for _, n := range v.Notes {
			fmt.Fprintf(&b, "\n  - %s", n)
		}
	}
	b.WriteString("\n")
	for _, s := range r.Series {
		fmt.Fprintf(&b, "\n%s (%s against %s): ", s.Name, s.Y, s.X)
		var pts []string
		for _, p := range s.Points {
			pts = append(pts, fmt.Sprintf("%g→%.2f (n=%d)", p.X, p.Y, p.N))
		}
		b.WriteString(strings.Join(pts, ", ") + "\n")
	}
	return b.String()
}

// smallestBreaking lists, for scenarios that bisect a fault's size, the smallest
// value that broke mutual exclusion beside what the model predicts: the figure the
// clock debate turns on.
func (r *Report) smallestBreaking() string {
	var rows []string
	for _, v := range r.Variants {
		measured, ok := v.Params["measured_smallest"]
		if !ok {
			continue
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s |", v.Name, measured, v.Params["model_smallest"]))
	}
	if len(rows) == 0 {
		return ""
	}
	return "\n### Smallest breaking values, measured beside the model\n\n| search | measured | model |\n|---|---|---|\n" +
		strings.Join(rows, "\n") + "\n"
}

func (d Distribution) short() string {
	if d.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f/%.1f/%.1f", d.P50, d.P99, d.Max)
}
