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
	if _, err := contention.ParseKeys(spec, contention.CopiesIn(spec)); err != nil {
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
	if _, err := contention.ShapedHold(spec, time.Millisecond); err != nil {
		return "", fmt.Errorf("hold-dist: %w", err)
	}
	return spec, nil
}

// draws are the cell's key popularity (nil: fixed keys) and hold distribution (a
// constant at Hold when no spread is named; nil for a constant hold of 0).
func (c Cell) draws() (*contention.Keys, *contention.Hold, error) {
	var keys *contention.Keys
	if c.KeyDist != "" {
		var err error
		if keys, err = contention.ParseKeys(c.KeyDist, c.Keys); err != nil {
			return nil, nil, err
		}
	}
	if c.HoldDist == "" && c.Hold <= 0 {
		return keys, nil, nil
	}
	h, err := contention.ShapedHold(c.HoldDist, c.Hold)
	return keys, &h, err
}

// spread is the cell's draw of keys and holds for the load engine; nil when the cell
// keeps the fixed keys and constant hold.
func (c Cell) spread(seed uint64) (*bench.Spread, error) {
	if c.KeyDist == "" && c.HoldDist == "" {
		return nil, nil
	}
	keys, hold, err := c.draws()
	if err != nil {
		return nil, err
	}
	s := &bench.Spread{Keys: keys, Seed: seed}
	if c.HoldDist != "" {
		s.Hold = hold
	}
	return s, nil
}
