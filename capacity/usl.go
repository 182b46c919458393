package capacity

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// PoorFit is the relative residual above which a USL fit is not used to predict.
const PoorFit = 0.10

// Point is one measured throughput at a concurrency.
type Point struct {
	N float64 // clients
	X float64 // throughput, completed cycles per second
}

// USL is the Universal Scalability Law X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)):
// lambda the throughput of one client, sigma the share serialized (contention), kappa
// the cost of keeping clients coherent (crosstalk).
type USL struct {
	Lambda, Sigma, Kappa float64
	// Residual is the root mean square of (measured - fitted) / measured over the points.
	Residual float64
	Points   int
}

// At is the law's throughput at concurrency n.
func (u USL) At(n float64) float64 {
	return u.Lambda * n / (1 + u.Sigma*(n-1) + u.Kappa*n*(n-1))
}

// Poor says whether the fit is too far from its points to predict from.
func (u USL) Poor() bool { return u.Residual > PoorFit }

// Peak is the concurrency at which the law's throughput is highest and that
// throughput; ok is false when it never turns down (kappa 0) or never grows.
func (u USL) Peak() (n, x float64, ok bool) {
	if u.Kappa <= 0 || u.Sigma >= 1 {
		return 0, 0, false
	}
	n = math.Sqrt((1 - u.Sigma) / u.Kappa)
	return n, u.At(n), true
}

// FitUSL fits the law to points by least squares on N/X, which is linear in
// (1/lambda, sigma/lambda, kappa/lambda), each point weighted so that the squares
// are relative errors; sigma and kappa are kept non-negative by fitting the
// restricted laws too and keeping the closest with no negative term. It needs four
// distinct concurrencies: three would fit any three points exactly.
func FitUSL(points []Point) (USL, error) {
	distinctN := map[float64]bool{}
	for _, p := range points {
		if !(p.N >= 1) || !(p.X > 0) || math.IsInf(p.X, 0) {
			return USL{}, fmt.Errorf("point (N=%g, X=%g): want N >= 1 and a finite X > 0", p.N, p.X)
		}
		distinctN[p.N] = true
	}
	if len(distinctN) < 4 {
		return USL{}, fmt.Errorf("%d distinct client counts: the fit needs at least 4", len(distinctN))
	}
	best := USL{Residual: math.Inf(1)}
	for _, terms := range [][3]bool{{true, true, true}, {true, false, true}, {true, true, false}, {true, false, false}} {
		coef, err := weightedLinear(points, terms)
		if err != nil || coef[0] <= 0 || coef[1] < 0 || coef[2] < 0 {
			continue
		}
		u := USL{Lambda: 1 / coef[0], Sigma: coef[1] / coef[0], Kappa: coef[2] / coef[0], Points: len(points)}
		u.Residual = residual(u, points)
		if u.Residual < best.Residual {
			best = u
		}
	}
	if math.IsInf(best.Residual, 1) {
		return USL{}, errors.New("no law with non-negative sigma and kappa fits these points")
	}
	return best, nil
}

// weightedLinear solves min sum w (y - a - b (N-1) - c N (N-1))^2 with y = N/X and
// w = 1/y^2, over the terms switched on; the others stay 0.
func weightedLinear(points []Point, terms [3]bool) ([3]float64, error) {
	var idx []int
	for i, on := range terms {
		if on {
			idx = append(idx, i)
		}
	}
	k := len(idx)
	a := make([][]float64, k)
	for i := range a {
		a[i] = make([]float64, k+1)
	}
	for _, p := range points {
		y := p.N / p.X
		w := 1 / (y * y)
		full := [3]float64{1, p.N - 1, p.N * (p.N - 1)}
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				a[i][j] += w * full[idx[i]] * full[idx[j]]
			}
			a[i][k] += w * full[idx[i]] * y
		}
	}
	sol, err := solve(a)
	var out [3]float64
	if err != nil {
		return out, err
	}
	for i, j := range idx {
		out[j] = sol[i]
	}
	return out, nil
}

// solve runs Gaussian elimination with partial pivoting on an augmented matrix.
func solve(a [][]float64) ([]float64, error) {
	n := len(a)
	for col := 0; col < n; col++ {
		pivot := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[pivot][col]) {
				pivot = r
			}
		}
		if math.Abs(a[pivot][col]) < 1e-300 {
			return nil, errors.New("singular system")
		}
		a[col], a[pivot] = a[pivot], a[col]
		for r := 0; r < n; r++ {
			if r == col {
				continue
			}
			f := a[r][col] / a[col][col]
			for c := col; c <= n; c++ {
				a[r][c] -= f * a[col][c]
			}
		}
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = a[i][n] / a[i][i]
	}
	return out, nil
}

// residual is the root mean square relative error of u over points.
func residual(u USL, points []Point) float64 {
	var sum float64
	for _, p := range points {
		e := (p.X - u.At(p.N)) / p.X
		sum += e * e
	}
	return math.Sqrt(sum / float64(len(points)))
}

// SortPoints orders points by concurrency, for drawing.
func SortPoints(points []Point) {
	sort.Slice(points, func(i, j int) bool { return points[i].N < points[j].N })
}
