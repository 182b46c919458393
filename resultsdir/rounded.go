package resultsdir

import "time"

// Rounded is d as the command's tables print it: to 10µs from a millisecond up, to
// the microsecond from a microsecond up, else exact.
func (d Duration) Rounded() string {
	t := time.Duration(d)
	switch {
	case t >= time.Millisecond:
		return t.Round(10 * time.Microsecond).String()
	case t >= time.Microsecond:
		return t.Round(time.Microsecond).String()
	}
	return t.String()
}
