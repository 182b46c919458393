package results

// Report is what one scenario run found; results.json holds a list of them.
type Report struct {
	Scenario         string            `json:"scenario"`
	Summary          string            `json:"summary"`
	Seed             int64             `json:"seed"`
	TrialsPerVariant int               `json:"trials_per_variant"`
	Params           map[string]string `json:"params,omitempty"`
	// Provider names where the scenario's servers ran when it is not the command's
	// (a partition scenario of --all moved to containers).
	Provider string `json:"provider,omitempty"`
	// Binary is the lockbench executable that ran the scenario (the environment's
	// binary): a resume keeps a report only from the program it carries on with.
	Binary string `json:"binary,omitempty"`
	// Complete is false for a scenario cut short: its variants hold the trials that
	// finished, each variant's tally.trials of them.
	Complete bool       `json:"complete"`
	Variants []*Variant `json:"variants"`
	// Series are ready for plots: one line per series, y against x.
	Series []Series `json:"series,omitempty"`
	// Seconds is the whole run; TrialsPerMinute is every trial over it.
	Seconds         float64 `json:"seconds"`
	TrialsPerMinute float64 `json:"trials_per_minute"`
}

// Series is one line of a figure.
type Series struct {
	Name   string  `json:"name"`
	X      string  `json:"x"` // what x measures, with its unit
	Y      string  `json:"y"`
	Points []Point `json:"points"`
}

// Point is y at x. A probability point (K of N judged trials) carries its 95%
// interval in Lo and Hi, which the figures draw as error bars; other points have
// Lo = Hi = Y.
type Point struct {
	X  float64 `json:"x"`
	Y  float64 `json:"y"`
	N  int     `json:"n"`
	K  int     `json:"k"`
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// ProbabilityPoint is K of N at x, with its interval; N = 0 gives no point (ok false).
func ProbabilityPoint(x float64, k, n int) (Point, bool) {
	if n == 0 {
		return Point{}, false
	}
	p := ProportionOf(k, n)
	return Point{X: x, Y: float64(k) / float64(n), N: n, K: k, Lo: p.Lo, Hi: p.Hi}, true
}

// VariantPoint is v's share of judged trials where m was > 0, at x, with the interval
// valid for how its trials stopped (Variant.Interval's choice).
func VariantPoint(x float64, v *Variant, m Measure) (Point, bool) {
	pt, ok := ProbabilityPoint(x, v.Tally.Broke[m], v.Tally.Judged)
	if ok && v.Stopping != "" {
		pt.Lo, pt.Hi = Sequence(pt.K, pt.N)
	}
	return pt, ok
}

// ValuePoint is a plain value at x (a model's prediction), with no interval.
func ValuePoint(x, y float64) Point { return Point{X: x, Y: y, N: 1, Lo: y, Hi: y} }

// Finish sets the run's duration and rate once every variant is in.
func (r *Report) Finish(seconds float64) {
	r.Seconds = seconds
	n := 0
	for _, v := range r.Variants {
		n += v.Tally.Trials
	}
	if seconds > 0 {
		r.TrialsPerMinute = float64(n) / seconds * 60
	}
}

// Variant returns the variant called name, or nil.
func (r *Report) Variant(name string) *Variant {
	for _, v := range r.Variants {
		if v.Name == name {
			return v
		}
	}
	return nil
}
