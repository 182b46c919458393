package compare

import "github.com/lockbench/lockbench/stats"

// The corrections for testing many figures at once live with the statistics; the gate
// names them by these.
const (
	// Holm is the default: the gate's exit status is one decision over all figures,
	// and Holm keeps the family-wise bound whatever the other figures do.
	Holm = stats.Holm
	BH   = stats.BH
)

// ParseCorrection checks a --correction value.
func ParseCorrection(s string) (string, error) { return stats.ParseCorrection(s) }

// adjusted returns each p-value adjusted for the family of all of ps.
func adjusted(ps []float64, method string) []float64 { return stats.Adjusted(ps, method) }
