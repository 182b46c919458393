package capacity

import (
	"context"
	"fmt"
	"math"
	"time"
)

// Params shape a search; zero fields take the defaults of withDefaults.
type Params struct {
	Budget Budget
	// Precision is how close the highest kept rate and the lowest broken one must be,
	// as a share of the kept rate: 0.05 answers within 5%.
	Precision float64
	Start     float64 // first rate tried (default 1000/s)
	Growth    float64 // factor between rates while the budget holds (default 2)
	// Min and Max bound the rates tried (default Max 1e6/s; default Min the rate
	// whose probe lasts MaxDuration).
	Min, Max float64
	// Warmup is discarded before each probe's measured part; MinDuration is the
	// shortest measured part, however high the rate; MaxDuration the longest a probe
	// may need for its samples (defaults 200 ms, 300 ms, 5 s).
	Warmup      time.Duration
	MinDuration time.Duration
	MaxDuration time.Duration
	// MaxProbes bounds the whole search (default 60): a noisy server cannot keep it
	// running for ever.
	MaxProbes int
}

func (p Params) withDefaults() Params {
	if p.Start == 0 {
		p.Start = 1000
	}
	if p.Growth == 0 {
		p.Growth = 2
	}
	if p.MaxDuration == 0 {
		p.MaxDuration = 5 * time.Second
	}
	if need, err := p.Budget.MinSamples(); p.Min == 0 && err == nil {
		p.Min = min(math.Ceil(1.1*float64(need)/p.MaxDuration.Seconds()), p.Start)
	}
	if p.Max == 0 {
		p.Max = 1e6
	}
	if p.Warmup == 0 {
		p.Warmup = 200 * time.Millisecond
	}
	if p.MinDuration == 0 {
		p.MinDuration = 300 * time.Millisecond
	}
	if p.MaxProbes == 0 {
		p.MaxProbes = 60
	}
	return p
}

// Validate names the first parameter a search cannot use.
func (p Params) Validate() error {
	p = p.withDefaults()
	if _, err := p.Budget.Quantile(); err != nil {
		return fmt.Errorf("slo: %w", err)
	}
	switch {
	case p.Budget.Limit <= 0:
		return fmt.Errorf("slo: budget %v must be > 0", p.Budget.Limit)
	case !(p.Precision > 0 && p.Precision < 1):
		return fmt.Errorf("precision = %g%%: must be > 0%% and < 100%%", 100*p.Precision)
	case !(p.Start > 0) || math.IsInf(p.Start, 0):
		return fmt.Errorf("start rate = %v: must be a finite number > 0", p.Start)
	case !(p.Growth > 1) || math.IsInf(p.Growth, 0):
		return fmt.Errorf("growth = %v: must be > 1", p.Growth)
	case !(p.Min > 0) || p.Min > p.Start:
		return fmt.Errorf("min rate = %v: must be > 0 and <= the start rate (%v); a lower start, or a longer max duration, "+
			"lowers the default", p.Min, p.Start)
	case math.IsInf(p.Max, 0) || p.Max < p.Start:
		return fmt.Errorf("max rate = %v: must be finite and >= the start rate (%v)", p.Max, p.Start)
	case p.Warmup < 0 || p.MinDuration <= 0 || p.MaxDuration < p.MinDuration:
		return fmt.Errorf("warmup = %v, min duration = %v, max duration = %v: must be >= 0, > 0 and >= min duration",
			p.Warmup, p.MinDuration, p.MaxDuration)
	case p.MaxProbes < 2:
		return fmt.Errorf("max probes = %d: must be >= 2 (a verdict takes two agreeing probes)", p.MaxProbes)
	}
	return nil
}

// PlanFor is a probe at rate: long enough for MinSamples beyond the warm-up with a
// tenth to spare, never shorter than MinDuration.
func (p Params) PlanFor(rate float64) Plan {
	p = p.withDefaults()
	need, _ := p.Budget.MinSamples()
	d := time.Duration(1.1 * float64(need) / rate * float64(time.Second))
	return Plan{Warmup: p.Warmup, Duration: max(d, p.MinDuration)}
}

// Step is one probe of a search and its verdict.
type Step struct {
	Probe   Probe
	Verdict Verdict
}

// Result is what a search found.
type Result struct {
	// Kept is the highest rate that kept the budget on two probes (0: none down to
	// Min); Broke the lowest that broke it on two (0: none up to Max).
	Kept, Broke float64
	// GeneratorBound says the rate at Broke failed because the generator could not
	// deliver it: the answer is the generator's limit, not the servers'.
	GeneratorBound bool
	BrokeWhy       string
	// Converged says Kept and Broke are within the precision (or the search hit Min
	// or Max); false when MaxProbes ran out first.
	Converged bool
	Steps     []Step
}

// Precision is the gap between Kept and Broke as a share of Kept; 0 when either is
// unknown.
func (r Result) Precision() float64 {
	if r.Kept == 0 || r.Broke == 0 {
		return 0
	}
	return (r.Broke - r.Kept) / r.Kept
}

// Top is the probes at the highest kept rate and at the lowest broken one: where a
// reader looks to see what saturated.
func (r Result) Top() []Step {
	var out []Step
	for _, s := range r.Steps {
		if s.Probe.Offered == r.Kept || s.Probe.Offered == r.Broke {
			out = append(out, s)
		}
	}
	return out
}

// searcher carries one search's state.
type searcher struct {
	ctx        context.Context
	prober     Prober
	params     Params
	minSamples int64
	res        Result
}

// errOutOfProbes stops a search that spent its MaxProbes.
var errOutOfProbes = fmt.Errorf("out of probes")

// keeps probes rate until two probes agree: a rate counts as kept when two kept it, as
// broken when two broke it (a third probe settles a split), so neither one lucky nor
// one unlucky probe moves the answer (a lone spike had cut a search's answer tenfold).
func (s *searcher) keeps(rate float64) (bool, error) {
	kept, broke := 0, 0
	for repeat := 1; kept < 2 && broke < 2; repeat++ {
		if len(s.res.Steps) >= s.params.MaxProbes {
			return false, errOutOfProbes
		}
		p, err := s.prober.Probe(s.ctx, rate, repeat, s.params.PlanFor(rate))
		if err != nil {
			return false, err
		}
		p.Offered, p.Repeat = rate, repeat
		v := Judge(p, s.params.Budget, s.minSamples)
		s.res.Steps = append(s.res.Steps, Step{Probe: p, Verdict: v})
		if v.Kept {
			kept++
		} else {
			broke++
		}
	}
	if broke == 2 {
		why, bound := s.whyBroke(rate)
		s.res.Broke, s.res.BrokeWhy, s.res.GeneratorBound = rate, why, bound
		return false, nil
	}
	s.res.Kept = rate // kept rates only rise: every broken one lies above them
	return true, nil
}

// Search finds the highest rate that keeps params.Budget: geometric growth from
// Start until a rate breaks it (or down from Start if Start does), then bisection
// (geometric means) until the kept and broken rates are within Precision.
func Search(ctx context.Context, prober Prober, params Params) (Result, error) {
	if err := params.Validate(); err != nil {
		return Result{}, err
	}
	params = params.withDefaults()
	need, _ := params.Budget.MinSamples()
	s := &searcher{ctx: ctx, prober: prober, params: params, minSamples: need}
	err := s.run()
	if err == errOutOfProbes {
		return s.res, nil
	}
	return s.res, err
}

func (s *searcher) run() error {
	p := s.params
	var b bounds
	for rate := p.Start; ; {
		if err := s.narrow(&b, rate); err != nil {
			return err
		}
		if b.broke != 0 {
			break
		}
		if rate >= p.Max {
			s.res.Converged = true
			return nil
		}
		rate = roundRate(min(rate*p.Growth, p.Max))
	}
	for b.kept == 0 {
		rate := roundRate(b.broke / p.Growth)
		if rate < p.Min {
			s.res.Converged = true
			return nil
		}
		if err := s.narrow(&b, rate); err != nil {
			return err
		}
	}
	for (b.broke-b.kept)/b.kept > p.Precision {
		mid := roundRate(math.Sqrt(b.kept * b.broke))
		if mid <= b.kept || mid >= b.broke {
			break // rates rounded to whole requests per second cannot be split further
		}
		if err := s.narrow(&b, mid); err != nil {
			return err
		}
	}
	s.res.Kept, s.res.Broke, s.res.Converged = b.kept, b.broke, true
	s.res.BrokeWhy, s.res.GeneratorBound = s.whyBroke(b.broke)
	return nil
}

// bounds are the highest rate kept and the lowest broken so far (0 while there is none).
type bounds struct{ kept, broke float64 }

// narrow probes rate and makes it the bound it turns out to be.
func (s *searcher) narrow(b *bounds, rate float64) error {
	ok, err := s.keeps(rate)
	if err != nil {
		return err
	}
	if ok {
		b.kept = rate
	} else {
		b.broke = rate
	}
	return nil
}

// whyBroke recalls the verdict of the probe that broke at rate.
func (s *searcher) whyBroke(rate float64) (string, bool) {
	for _, st := range s.res.Steps {
		if st.Probe.Offered == rate && !st.Verdict.Kept {
			return st.Verdict.Why, st.Verdict.GeneratorBound
		}
	}
	return "", false
}

// roundRate keeps rates whole numbers of requests per second, so cell names stay short.
func roundRate(r float64) float64 { return math.Max(1, math.Round(r)) }
