package contention

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestParseHoldReadsEachSpec(t *testing.T) {
	for _, c := range []struct {
		spec  string
		kind  HoldKind
		mean  time.Duration
		sigma float64
	}{
		{"const:20ms", Const, 20 * time.Millisecond, 0},
		{"exp:20ms", Exp, 20 * time.Millisecond, 0},
		{"lognormal:20ms,0.5", Lognormal, 20 * time.Millisecond, 0.5},
		{"lognormal: 1.5s , 1", Lognormal, 1500 * time.Millisecond, 1},
		{"5ms", Const, 5 * time.Millisecond, 0},
	} {
		h, err := ParseHold(c.spec)
		if err != nil {
			t.Fatalf("%q: %v", c.spec, err)
		}
		if h.Kind() != c.kind || h.Mean() != c.mean || h.Sigma() != c.sigma {
			t.Errorf("%q: %s %v %v", c.spec, h.Kind(), h.Mean(), h.Sigma())
		}
		if back, err := ParseHold(h.String()); err != nil || back != h {
			t.Errorf("%q: String %q does not parse back (%v)", c.spec, h.String(), err)
		}
	}
}

func TestParseHoldNamesWhatIsWrong(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"gamma:20ms", `unknown hold distribution "gamma"`},
		{"exp", "want const:D, exp:D or lognormal:D,SIGMA"},
		{"20", "want const:D"},
		{"exp:20", `mean "20" is not a duration`},
		{"exp:soon", `mean "soon" is not a duration`},
		{"const:0s", "mean 0s: want a duration above 0"},
		{"exp:-3ms", "mean -3ms: want a duration above 0"},
		{"exp:20ms,0.5", "exp takes only its mean"},
		{"lognormal:20ms", "lognormal needs its mean and sigma"},
		{"lognormal:20ms,wide", `sigma "wide" is not a number`},
		{"lognormal:20ms,0", "sigma 0: want a finite sigma above 0 (0 is const)"},
		{"lognormal:20ms,-1", "sigma -1"},
		{"lognormal:20ms,Inf", "finite sigma"},
		{"lognormal:20ms,6", "sigma 6: want at most 5"},
	} {
		_, err := ParseHold(c.spec)
		var se *SpecError
		if !errors.As(err, &se) || se.What != "hold" {
			t.Errorf("%q: err %v, want a hold SpecError", c.spec, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.spec) {
			t.Errorf("%q: %q, want it to quote the spec and say %q", c.spec, err, c.want)
		}
	}
	if _, err := NewHold(Exp, 20*time.Millisecond, 0.3); err == nil || !strings.Contains(err.Error(), "only lognormal") {
		t.Errorf("NewHold(exp, sigma 0.3): %v", err)
	}
}

func TestMomentsByHand(t *testing.T) {
	for _, c := range []struct {
		spec         string
		m1, m2       float64
		median       time.Duration
		medianWithin time.Duration
	}{
		{"const:20ms", 0.02, 0.0004, 20 * time.Millisecond, 0},
		{"exp:20ms", 0.02, 0.0008, 13862943 * time.Nanosecond, time.Nanosecond},
		// mean 20 ms, sigma 1: median 20 e^-0.5 = 12.13 ms, E[S^2] = 0.0004 e
		{"lognormal:20ms,1", 0.02, 0.0004 * math.E, 12130613 * time.Nanosecond, time.Nanosecond},
	} {
		h, _ := ParseHold(c.spec)
		if math.Abs(h.MeanSeconds()-c.m1) > 1e-15 || math.Abs(h.SecondMoment()-c.m2) > 1e-15 {
			t.Errorf("%s: E[S] %v E[S^2] %v, want %v %v", c.spec, h.MeanSeconds(), h.SecondMoment(), c.m1, c.m2)
		}
		if d := h.Median() - c.median; d < -c.medianWithin || d > c.medianWithin {
			t.Errorf("%s: median %v, want %v", c.spec, h.Median(), c.median)
		}
	}
}

// Sampled holds have the moments the model reads: the sample mean and mean square
// within 5 standard errors (from the distribution's own fourth moment and the count).
func TestSampledMomentsMatch(t *testing.T) {
	const n = 200_000
	for _, c := range []struct {
		spec string
		m4   func(m, s float64) float64 // E[S^4]
	}{
		{"exp:20ms", func(m, _ float64) float64 { return 24 * math.Pow(m, 4) }},
		{"lognormal:20ms,0.5", func(m, s float64) float64 { return math.Pow(m, 4) * math.Exp(6*s*s) }},
	} {
		h, _ := ParseHold(c.spec)
		r := NewRand(7, holdStream)
		sum, sumSq := 0.0, 0.0
		for range n {
			x := h.Sample(r).Seconds()
			sum += x
			sumSq += x * x
		}
		m1, m2 := h.MeanSeconds(), h.SecondMoment()
		se1 := math.Sqrt((m2 - m1*m1) / n)
		se2 := math.Sqrt((c.m4(m1, h.Sigma()) - m2*m2) / n)
		if got := sum / n; math.Abs(got-m1) > 5*se1 {
			t.Errorf("%s: sample mean %v, want %v within %v", c.spec, got, m1, 5*se1)
		}
		if got := sumSq / n; math.Abs(got-m2) > 5*se2 {
			t.Errorf("%s: sample mean square %v, want %v within %v", c.spec, got, m2, 5*se2)
		}
	}
	h, _ := ParseHold("const:20ms")
	if d := h.Sample(NewRand(1, holdStream)); d != 20*time.Millisecond {
		t.Errorf("const:20ms sampled %v", d)
	}
}

// A shape takes its mean apart: const (or nothing), exp, lognormal:SIGMA; a parameter
// where none belongs, a missing sigma or another kind is named.
func TestShapedHoldReadsEachShape(t *testing.T) {
	for shape, kind := range map[string]HoldKind{"": Const, "const": Const, "exp": Exp, "lognormal:0.5": Lognormal} {
		h, err := ShapedHold(shape, 20*time.Millisecond)
		if err != nil || h.Kind() != kind || h.Mean() != 20*time.Millisecond {
			t.Errorf("%q: %v %v, want %s of mean 20ms", shape, h, err, kind)
		}
	}
	for shape, want := range map[string]string{"exp:2": "exp takes no parameter", "lognormal": "needs its sigma",
		"lognormal:wide": `sigma "wide" is not a number`, "pareto": "want const, exp or lognormal:SIGMA"} {
		if _, err := ShapedHold(shape, 20*time.Millisecond); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want it to say %q", shape, err, want)
		}
	}
}
