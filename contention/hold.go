package contention

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// maxSigma bounds a lognormal's spread: past it the second moment, and so the mean
// floor wait, is dominated by holds that no run would ever draw.
const maxSigma = 5

// HoldKind names a hold-time distribution.
type HoldKind string

const (
	Const     HoldKind = "const"     // every hold lasts the mean
	Exp       HoldKind = "exp"       // exponential of the given mean
	Lognormal HoldKind = "lognormal" // exp(N(mu, sigma^2)), parameterised by its mean
)

// Hold is how long a holder keeps its key. Every kind is given by its mean, the
// lognormal too (median = mean x exp(-sigma^2/2)): a key's utilisation is rate x mean,
// so const:20ms, exp:20ms and lognormal:20ms,0.5 load a key alike and differ only in
// their spread, which is what the queueing floor's second moment sees.
type Hold struct {
	kind  HoldKind
	mean  time.Duration
	sigma float64 // lognormal only
}

// ParseHold reads "const:20ms", "exp:20ms" (mean), "lognormal:20ms,0.5" (mean, sigma of
// the log); a bare duration ("20ms") is const, as the ADR's workload file writes holds.
func ParseHold(spec string) (Hold, error) {
	s := strings.TrimSpace(spec)
	kind, arg, hasArg := strings.Cut(s, ":")
	if !hasArg {
		if _, err := time.ParseDuration(s); err == nil {
			kind, arg = string(Const), s
		} else {
			return Hold{}, holdError(spec, "want const:D, exp:D or lognormal:D,SIGMA (D the mean, e.g. 20ms)")
		}
	}
	meanText, sigmaText, hasSigma := strings.Cut(arg, ",")
	switch HoldKind(kind) {
	case Const, Exp:
		if hasSigma {
			return Hold{}, holdError(spec, "%s takes only its mean, e.g. %s:20ms", kind, kind)
		}
	case Lognormal:
		if !hasSigma {
			return Hold{}, holdError(spec, "lognormal needs its mean and sigma: lognormal:20ms,0.5")
		}
	default:
		return Hold{}, holdError(spec, "unknown hold distribution %q: want const, exp or lognormal", kind)
	}
	mean, err := time.ParseDuration(strings.TrimSpace(meanText))
	if err != nil {
		return Hold{}, holdError(spec, "mean %q is not a duration (e.g. 20ms)", meanText)
	}
	sigma := 0.0
	if hasSigma {
		if sigma, err = strconv.ParseFloat(strings.TrimSpace(sigmaText), 64); err != nil {
			return Hold{}, holdError(spec, "sigma %q is not a number", sigmaText)
		}
	}
	h, msg := newHold(HoldKind(kind), mean, sigma)
	if msg != "" {
		return Hold{}, holdError(spec, "%s", msg)
	}
	return h, nil
}

// ShapedHold is a hold of the shape a run's --hold-dist or a workload file names, its
// mean given apart: const (or ""), exp, or lognormal:SIGMA.
func ShapedHold(shape string, mean time.Duration) (Hold, error) {
	shape = strings.TrimSpace(shape)
	if shape == "" {
		shape = string(Const)
	}
	kind, sigmaText, hasSigma := strings.Cut(shape, ":")
	sigma := 0.0
	switch HoldKind(kind) {
	case Const, Exp:
		if hasSigma {
			return Hold{}, holdError(shape, "%s takes no parameter; its mean is given apart", kind)
		}
	case Lognormal:
		if !hasSigma {
			return Hold{}, holdError(shape, "lognormal needs its sigma, e.g. lognormal:0.5")
		}
		var err error
		if sigma, err = strconv.ParseFloat(strings.TrimSpace(sigmaText), 64); err != nil {
			return Hold{}, holdError(shape, "sigma %q is not a number", sigmaText)
		}
	default:
		return Hold{}, holdError(shape, "want const, exp or lognormal:SIGMA (the mean is given apart)")
	}
	return NewHold(HoldKind(kind), mean, sigma)
}

// NewHold makes a hold of a kind, mean and (lognormal only) sigma.
func NewHold(kind HoldKind, mean time.Duration, sigma float64) (Hold, error) {
	h, msg := newHold(kind, mean, sigma)
	if msg != "" {
		return Hold{}, holdError(holdSpec(kind, mean, sigma), "%s", msg)
	}
	return h, nil
}

func newHold(kind HoldKind, mean time.Duration, sigma float64) (Hold, string) {
	switch {
	case kind != Const && kind != Exp && kind != Lognormal:
		return Hold{}, "unknown hold distribution: want const, exp or lognormal"
	case mean <= 0:
		return Hold{}, "mean " + mean.String() + ": want a duration above 0"
	case kind == Lognormal && (math.IsNaN(sigma) || math.IsInf(sigma, 0) || sigma <= 0):
		return Hold{}, "sigma " + strconv.FormatFloat(sigma, 'g', -1, 64) + ": want a finite sigma above 0 (0 is const)"
	case kind == Lognormal && sigma > maxSigma:
		return Hold{}, "sigma " + strconv.FormatFloat(sigma, 'g', -1, 64) +
			": want at most 5 (E[S^2] grows as e^(sigma^2): at 5 it is 7e10 times the mean squared)"
	case kind != Lognormal && sigma != 0:
		return Hold{}, "only lognormal has a sigma"
	}
	return Hold{kind: kind, mean: mean, sigma: sigma}, ""
}

// holdSpec writes a hold as ParseHold reads it.
func holdSpec(kind HoldKind, mean time.Duration, sigma float64) string {
	if kind == Lognormal {
		return string(kind) + ":" + mean.String() + "," + strconv.FormatFloat(sigma, 'g', -1, 64)
	}
	return string(kind) + ":" + mean.String()
}

// Kind is the distribution's name.
func (h Hold) Kind() HoldKind { return h.kind }

// Mean is the mean hold.
func (h Hold) Mean() time.Duration { return h.mean }

// Sigma is the lognormal's sigma (of the log), 0 for the others.
func (h Hold) Sigma() float64 { return h.sigma }

// Median is the hold half the holders stay under.
func (h Hold) Median() time.Duration {
	switch h.kind {
	case Exp:
		return time.Duration(float64(h.mean) * math.Ln2)
	case Lognormal:
		return time.Duration(float64(h.mean) * math.Exp(-h.sigma*h.sigma/2))
	}
	return h.mean
}

// MeanSeconds is E[S] in seconds.
func (h Hold) MeanSeconds() float64 { return h.mean.Seconds() }

// SecondMoment is E[S^2] in seconds squared: m^2 (const), 2m^2 (exp), m^2 exp(sigma^2) (lognormal).
func (h Hold) SecondMoment() float64 {
	m := h.mean.Seconds()
	switch h.kind {
	case Exp:
		return 2 * m * m
	case Lognormal:
		return m * m * math.Exp(h.sigma*h.sigma)
	}
	return m * m
}

// SampleSeconds draws one hold in seconds.
func (h Hold) SampleSeconds(r *rand.Rand) float64 {
	m := h.mean.Seconds()
	switch h.kind {
	case Exp:
		return m * r.ExpFloat64()
	case Lognormal:
		return m * math.Exp(h.sigma*r.NormFloat64()-h.sigma*h.sigma/2) // median m e^(-sigma^2/2)
	}
	return m
}

// Sample draws one hold; a lognormal's far tail is capped at the longest Duration.
func (h Hold) Sample(r *rand.Rand) time.Duration {
	if h.kind == Const {
		return h.mean
	}
	ns := h.SampleSeconds(r) * 1e9
	if ns >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(ns)
}

// String is the spec that parses back to this hold.
func (h Hold) String() string { return holdSpec(h.kind, h.mean, h.sigma) }
