package merge

import (
	"fmt"
	"time"
)

// skewWarnings say where the shares of a cell disagree by more than bound: when their
// measured parts started (on the target's clock), or how far their clocks are from
// the target's. Either makes the common window, and so every rate, less exact.
func skewWarnings(name string, shares []share, bound time.Duration) []string {
	var out []string
	if lo,
		hi := spread(shares, func(s share) time.Duration { return onTarget(s).Sub(onTarget(shares[0])) }); hi.d-lo.d > bound {
		out = append(out, fmt.Sprintf("cell %s: the workers' actual starts disagree by %v (more than --max-skew %v): "+
			"worker %d started first, worker %d last",
			name, hi.d-lo.d, bound, lo.index, hi.index))
	}
	if lo,
		hi := spread(shares,
		func(s share) time.Duration { return s.cell.Worker.ClockOffsetToTarget.D() }); hi.d-lo.d > bound {
		out = append(out, fmt.Sprintf("cell %s: the workers' clock offsets to the target disagree by %v (more than "+
			"--max-skew %v): worker %d at %v, worker %d at %v",
			name, hi.d-lo.d, bound, lo.index, lo.d, hi.index, hi.d))
	}
	return out
}

type reading struct {
	index int
	d     time.Duration
}

// spread finds the shares with the least and the most of f.
func spread(shares []share, f func(share) time.Duration) (lo, hi reading) {
	for k, s := range shares {
		r := reading{s.cell.Worker.Index, f(s)}
		if k == 0 || r.d < lo.d {
			lo = r
		}
		if k == 0 || r.d > hi.d {
			hi = r
		}
	}
	return lo, hi
}
