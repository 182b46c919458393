package adrtest

import (
	"math"
	"testing"
)

// Near fails tb unless got is want to 4 decimals: the by-hand figures the tests check.
func Near(tb testing.TB, what string, got, want float64) {
	tb.Helper()
	if math.Abs(got-want) > 1e-4 {
		tb.Errorf("%s = %.6f, want %.6f", what, got, want)
	}
}
