package compare

import "math"

// studentInside is P(|T| < t) for Student's t with nu degrees of freedom, from the
// closed forms for whole nu (Abramowitz and Stegun 26.7.3 and 26.7.4).
func studentInside(t float64, nu int) float64 {
	theta := math.Atan(math.Abs(t) / math.Sqrt(float64(nu)))
	c2 := math.Cos(theta) * math.Cos(theta)
	if nu%2 == 0 {
		sum, term := 1.0, 1.0
		for k := 2; k <= nu-2; k += 2 {
			term *= c2 * float64(k-1) / float64(k)
			sum += term
		}
		return math.Sin(theta) * sum
	}
	if nu == 1 {
		return 2 * theta / math.Pi
	}
	sum, term := 1.0, 1.0
	for k := 3; k <= nu-2; k += 2 {
		term *= c2 * float64(k-1) / float64(k)
		sum += term
	}
	return 2 / math.Pi * (theta + math.Sin(theta)*math.Cos(theta)*sum)
}

// studentQuantile is the t beyond which |T| falls with probability tail (two-sided),
// found by bisection: the multiple of a standard error a measured spread allows.
func studentQuantile(tail float64, nu int) float64 {
	lo, hi := 0.0, 1.0
	for 1-studentInside(hi, nu) > tail {
		hi *= 2
	}
	for i := 0; i < 100; i++ {
		mid := (lo + hi) / 2
		if 1-studentInside(mid, nu) > tail {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}
