package crashfs

import "math"

// toEnd marks an extent that runs to the end of the file, whatever its size then.
const toEnd = math.MaxInt64

// extent is the byte range [start, end) of a file.
type extent struct{ start, end int64 }

// extents is a sorted list of disjoint byte ranges: where a file was written since
// its last fsync.
type extents []extent

// add merges [start, end) into the list, keeping it sorted and disjoint.
func (xs extents) add(start, end int64) extents {
	if end <= start {
		return xs
	}
	out := make(extents, 0, len(xs)+1)
	placed := false
	for _, x := range xs {
		switch {
		case x.end < start:
			out = append(out, x)
		case end < x.start:
			if !placed {
				out = append(out, extent{start, end})
				placed = true
			}
			out = append(out, x)
		default: // overlapping or touching: widen the new range
			start, end = min(start, x.start), max(end, x.end)
		}
	}
	if !placed {
		out = append(out, extent{start, end})
	}
	return out
}
