package results

import (
	"math"
	"slices"
)

// Trial is one trial, flat: its outcome, the proof that its fault happened, and what
// the checkers counted when it was judged.
type Trial struct {
	N int `json:"trial"`
	// Seed is the trial's own: its random source is PCG(the run's seed, Seed), a
	// function of the variant's name and N alone, never of the order trials ran in.
	Seed    uint64  `json:"seed"`
	Outcome Outcome `json:"outcome"`
	// ErrorKind and Message say what went wrong (Errored), why the fault was not
	// produced (FaultNotProduced) or what refused the grant (NotGranted).
	ErrorKind string `json:"error_kind,omitempty"`
	Message   string `json:"message,omitempty"`
	// Proof lists what the trial observed to show its fault happened: the key missing
	// on the promoted master, the clock step read back from the node...
	Proof   []string           `json:"proof,omitempty"`
	Inputs  map[string]float64 `json:"inputs,omitempty"` // e.g. delay_ms, lag_ms
	Counts  map[Measure]int    `json:"counts,omitempty"` // judged trials only
	Overlap []float64          `json:"overlap_ms,omitempty"`
	// WindowMs is the longest split-brain window the checkers found (zombie master).
	WindowMs float64 `json:"window_ms,omitempty"`
	Seconds  float64 `json:"seconds"` // how long the trial took, set-up included
}

// Variant is one configuration of a scenario and what its trials found.
type Variant struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Params      map[string]string `json:"params,omitempty"`
	// Measure is the headline: the interval in the tables is on the share of judged
	// trials where it was > 0.
	Measure Measure `json:"measure"`
	Claims  []Claim `json:"claims,omitempty"`
	// WindowIs says what WindowMs measures, where the variant has one.
	WindowIs       string   `json:"window_is,omitempty"`
	Trials         []Trial  `json:"per_trial"`
	Tally          Tally    `json:"tally"`
	Visualizations []string `json:"visualizations,omitempty"`
	Notes          []string `json:"notes,omitempty"`
	// Stopping says how the trial count was chosen when the data chose it
	// (--until-width); then Interval is the confidence sequence.
	Stopping string `json:"stopping,omitempty"`
	// Natural: the fault comes at its own rate (the scheduler, not a nemesis, makes it),
	// so a "some" claim is a rate to measure, not a behaviour a test may assert.
	Natural bool `json:"natural,omitempty"`
}

// Interval is the headline count with the interval valid for how the trials stopped:
// Wilson's for a fixed count, the confidence sequence when the data chose the count.
func (v *Variant) Interval() Proportion {
	if v.Stopping != "" {
		return v.Tally.Anytime
	}
	return v.Tally.Headline
}

// maxNotes keeps results.md readable: the first few reasons are enough to act on.
const maxNotes = 10

// Note adds a line to the variant's notes, up to maxNotes.
func (v *Variant) Note(n string) {
	if len(v.Notes) < maxNotes {
		v.Notes = append(v.Notes, n)
	}
}

// Add appends a trial and brings the tally up to date.
func (v *Variant) Add(t Trial) {
	v.Trials = append(v.Trials, t)
	v.Tally.add(v.Measure, t)
}

// Tally is what a variant's trials add up to.
type Tally struct {
	Trials           int            `json:"trials"`
	Judged           int            `json:"judged"`
	FaultNotProduced int            `json:"fault_not_produced"`
	NotGranted       int            `json:"not_granted"`
	Errors           map[string]int `json:"errors,omitempty"` // by kind
	// Broke counts, per measure, the judged trials where it was > 0; Sums add it up.
	Broke map[Measure]int `json:"broke,omitempty"`
	Sums  map[Measure]int `json:"sums,omitempty"`
	// Headline is Broke[Measure] of Judged with its 95% Wilson interval.
	Headline Proportion `json:"headline"`
	// Anytime is the same count with its 95% confidence sequence (Sequence): the
	// interval that stays valid when the trial count was chosen by the data seen.
	Anytime Proportion   `json:"anytime"`
	Overlap Distribution `json:"overlap_ms"`
	Window  Distribution `json:"window_ms"`
	// TrialSeconds is the duration of every trial, set-up included.
	TrialSeconds Distribution `json:"trial_seconds"`
}

// Proportion is K of N with its 95% interval; N = 0 is no verdict.
type Proportion struct {
	K  int     `json:"k"`
	N  int     `json:"n"`
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// Share is k / n; 0 when nothing was counted.
func (p Proportion) Share() float64 {
	if p.N == 0 {
		return 0
	}
	return float64(p.K) / float64(p.N)
}

// ProportionOf is k of n with its Wilson interval.
func ProportionOf(k, n int) Proportion {
	lo, hi := Wilson(k, n)
	return Proportion{K: k, N: n, Lo: lo, Hi: hi}
}

// SequenceOf is k of n with its confidence sequence.
func SequenceOf(k, n int) Proportion {
	lo, hi := Sequence(k, n)
	return Proportion{K: k, N: n, Lo: lo, Hi: hi}
}

// TallyOf adds up trials, with the headline on measure.
func TallyOf(measure Measure, trials []Trial) Tally {
	var t Tally
	for _, tr := range trials {
		t.add(measure, tr)
	}
	if t.Errors == nil { // an empty tally still reads as one
		t.Errors, t.Broke, t.Sums = map[string]int{}, map[Measure]int{}, map[Measure]int{}
	}
	return t
}

// add counts one more trial, with the headline on measure.
func (t *Tally) add(measure Measure, tr Trial) {
	if t.Errors == nil {
		t.Errors, t.Broke, t.Sums = map[string]int{}, map[Measure]int{}, map[Measure]int{}
	}
	t.Trials++
	t.TrialSeconds.Add(tr.Seconds)
	switch tr.Outcome {
	case Judged:
		t.Judged++
		for m, n := range tr.Counts {
			t.Sums[m] += n
			if n > 0 {
				t.Broke[m]++
			}
		}
		for _, o := range tr.Overlap {
			t.Overlap.Add(o)
		}
		if tr.WindowMs > 0 || tr.Counts[SplitBrainWindow] > 0 {
			t.Window.Add(tr.WindowMs)
		}
	case FaultNotProduced:
		t.FaultNotProduced++
	case NotGranted:
		t.NotGranted++
	case Errored:
		t.Errors[tr.ErrorKind]++
	}
	t.Headline = ProportionOf(t.Broke[measure], t.Judged)
	t.Anytime = SequenceOf(t.Broke[measure], t.Judged)
}

// Distribution is a sample with its percentiles.
type Distribution struct {
	N      int       `json:"n"`
	P50    float64   `json:"p50"`
	P90    float64   `json:"p90"`
	P99    float64   `json:"p99"`
	Max    float64   `json:"max"`
	Values []float64 `json:"values,omitempty"` // in the order they came
	sorted []float64 // Values in order, kept as they come so an Add costs one insert
}

// Add puts x in the sample and updates the percentiles.
func (d *Distribution) Add(x float64) {
	if len(d.sorted) != len(d.Values) { // read back from JSON: sort once
		d.sorted = slices.Sorted(slices.Values(d.Values))
	}
	d.Values = append(d.Values, x)
	i, _ := slices.BinarySearch(d.sorted, x)
	d.sorted = slices.Insert(d.sorted, i, x)
	s := d.sorted
	d.N = len(s)
	d.P50, d.P90, d.P99, d.Max = Quantile(s, 0.5), Quantile(s, 0.9), Quantile(s, 0.99), s[len(s)-1]
}

// Quantile is the nearest-rank quantile of sorted s.
func Quantile(s []float64, q float64) float64 {
	if len(s) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(i, 0)]
}
