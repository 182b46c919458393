package resultsdir

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// A thousand samples 1..1000 ms: the p99's interval is the 984th to the 997th, and a
// hundred samples leave the p99 unbounded above (fewer than two past it).
func TestSummaryBoundsItsP99(t *testing.T) {
	h := hdrhistogram.New(1, 10_000_000_000, 3)
	for v := int64(1); v <= 1000; v++ {
		_ = h.RecordValue(v * 1_000_000)
	}
	s := Summarize(h)
	if ms := func(d Duration) float64 { return float64(d) / 1e6 }; math.Abs(ms(s.P99Low)-984) > 1 ||
		math.Abs(ms(s.P99High)-997) > 1 {
		t.Errorf("p99 %v in [%v, %v], want about [984ms, 997ms]", s.P99, s.P99Low, s.P99High)
	}
	small := hdrhistogram.New(1, 10_000_000_000, 3)
	for v := int64(1); v <= 100; v++ {
		_ = small.RecordValue(v * 1_000_000)
	}
	if s := Summarize(small); s.P99High != 0 || s.P99Low == 0 {
		t.Errorf("100 samples: p99 in [%v, %v], want a lower bound and none above", s.P99Low, s.P99High)
	}
}

// The ranks cover the true p99 about 95% of the time: 2,000 seeded samples of 1,000
// exponential draws, true p99 = ln 100.
func TestQuantileRanksCoverAbout95Percent(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	truth, covered := math.Log(100), 0
	const rounds, n = 2000, 1000
	low, high := QuantileRanks(n, 0.99)
	for range rounds {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = r.ExpFloat64()
		}
		slices.Sort(xs)
		if xs[low-1] <= truth && truth <= xs[high-1] {
			covered++
		}
	}
	if share := float64(covered) / rounds; share < 0.94 || share > 0.98 {
		t.Errorf("covered the true p99 in %.3f of %d samples, want about 0.95", share, rounds)
	}
}
