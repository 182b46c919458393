package sweep

import (
	"fmt"
	"strings"
	"time"

	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/contention"
)

// Key and hold spreads of a sweep: the default keeps client c on key c mod keys for
// a constant hold; any other draws each cycle's key and hold (bench.Spread).
const (
	FixedKeys = "fixed" // client c always on key c mod keys
	ConstHold = "const" // every hold is the hold axis's value
)

// keyDist checks a sweep's key popularity: fixed, uniform or zipf:S. It returns ""
// for fixed, else the spec as cells name it.
func keyDist(spec string) (string, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" || spec == FixedKeys {
		return "", nil
	}
	if _, err := contention.ParseKeys(spec, 1); err != nil {
		return "", fmt.Errorf("key-dist: %w (or %s: client c on key c mod keys)", err, FixedKeys)
	}
	return spec, nil
}

// holdDist checks a sweep's hold distribution, the hold axis giving its mean: const,
// exp or lognormal:SIGMA. It returns "" for const, else the shape as cells name it.
func holdDist(spec string) (string, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" || spec == ConstHold {
		return "", nil
	}
	if _, err := holdOf(spec, time.Millisecond); err != nil {
		return "", fmt.Errorf("hold-dist: %w", err)
	}
	return spec, nil
}

// holdOf is the distribution shape at a mean: exp, or lognormal:SIGMA.
func holdOf(shape string, mean time.Duration) (contention.Hold, error) {
	kind, sigma, hasSigma := strings.Cut(shape, ":")
	switch contention.HoldKind(kind) {
	case contention.Exp:
		if hasSigma {
			return contention.Hold{}, fmt.Errorf("%q: exp takes no parameter; the hold axis gives its mean", shape)
		}
		return contention.ParseHold("exp:" + mean.String())
	case contention.Lognormal:
		if !hasSigma {
			return contention.Hold{}, fmt.Errorf("%q: lognormal needs its sigma, e.g. lognormal:0.5", shape)
		}
		return contention.ParseHold("lognormal:" + mean.String() + "," + sigma)
	}
	return contention.Hold{}, fmt.Errorf("%q: want %s, exp or lognormal:SIGMA (the hold axis gives the mean)", shape,
		ConstHold)
}

// spread is the cell's draw of keys and holds for the load engine; nil when the cell
// keeps the fixed keys and constant hold.
func (c Cell) spread(seed uint64) (*bench.Spread, error) {
	if c.KeyDist == "" && c.HoldDist == "" {
		return nil, nil
	}
	s := &bench.Spread{Seed: seed}
	if c.KeyDist != "" {
		keys, err := contention.ParseKeys(c.KeyDist, c.Keys)
		if err != nil {
			return nil, err
		}
		s.Keys = keys
	}
	if c.HoldDist != "" {
		h, err := holdOf(c.HoldDist, c.Hold)
		if err != nil {
			return nil, err
		}
		s.Hold = &h
	}
	return s, nil
}
