package capacity

import (
	"math"
	"math/rand/v2"
	"testing"
)

func uslPoints(u USL, ns []float64, noise float64, seed uint64) []Point {
	rng := rand.New(rand.NewPCG(seed, seed))
	var out []Point
	for _, n := range ns {
		out = append(out, Point{N: n, X: u.At(n) * (1 + noise*(2*rng.Float64()-1))})
	}
	return out
}

func TestUSLFitRecoversKnownSigmaAndKappa(t *testing.T) {
	ns := []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}
	for _, want := range []USL{
		{Lambda: 12000, Sigma: 0.05, Kappa: 0.0002},
		{Lambda: 1500, Sigma: 0.3, Kappa: 0.00001},
		{Lambda: 5000, Sigma: 0.02, Kappa: 0},
	} {
		got, err := FitUSL(uslPoints(want, ns, 0, 1))
		if err != nil {
			t.Fatal(err)
		}
		if rel(got.Lambda, want.Lambda) > 1e-6 || math.Abs(got.Sigma-want.Sigma) > 1e-6 || math.Abs(got.Kappa-want.Kappa) > 1e-9 {
			t.Errorf("fit %+v, want %+v", got, want)
		}
		if got.Residual > 1e-6 || got.Poor() {
			t.Errorf("exact points left a residual of %g", got.Residual)
		}
	}
}

func TestUSLFitWithNoiseStaysClose(t *testing.T) {
	want := USL{Lambda: 12000, Sigma: 0.05, Kappa: 0.0002}
	got, err := FitUSL(uslPoints(want, []float64{1, 2, 4, 8, 16, 32, 64, 128, 256}, 0.03, 7))
	if err != nil {
		t.Fatal(err)
	}
	wn, wx, _ := want.Peak()
	gn, gx, ok := got.Peak()
	if !ok || rel(gn, wn) > 0.25 || rel(gx, wx) > 0.1 || got.Poor() {
		t.Errorf("peak %.1f clients at %.0f/s (residual %.3f), want about %.1f at %.0f/s", gn, gx, got.Residual, wn, wx)
	}
}

func TestUSLPoorFitIsFlagged(t *testing.T) {
	// A sawtooth no law of this shape follows.
	pts := []Point{{1, 1000}, {2, 8000}, {4, 1500}, {8, 9000}, {16, 1200}, {32, 9500}}
	got, err := FitUSL(pts)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Poor() {
		t.Errorf("residual %.3f on a sawtooth, want above %.2f", got.Residual, PoorFit)
	}
}

func TestUSLNeedsFourClientCounts(t *testing.T) {
	if _, err := FitUSL([]Point{{1, 100}, {2, 190}, {4, 300}, {4, 310}}); err == nil {
		t.Error("three distinct client counts fitted; want an error")
	}
	if _, err := FitUSL([]Point{{1, 100}, {2, 0}, {4, 300}, {8, 310}}); err == nil {
		t.Error("a zero throughput fitted; want an error")
	}
}

func rel(a, b float64) float64 { return math.Abs(a-b) / math.Abs(b) }
