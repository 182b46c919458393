package contention

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParseKeysReadsEachSpec(t *testing.T) {
	for _, c := range []struct {
		spec string
		n    int
		s    float64
	}{{"uniform", 7, 0}, {"zipf:1", 10, 1}, {"zipf:0.8", 10, 0.8}, {" zipf:1.5 ", 3, 1.5}, {"zipf:1", 1, 1}} {
		k, err := ParseKeys(c.spec, c.n)
		if err != nil {
			t.Fatalf("%q: %v", c.spec, err)
		}
		if k.N() != c.n || k.Exponent() != c.s {
			t.Errorf("%q: N %d exponent %v, want %d %v", c.spec, k.N(), k.Exponent(), c.n, c.s)
		}
		if back, err := ParseKeys(k.String(), c.n); err != nil || back.Exponent() != k.Exponent() {
			t.Errorf("%q: String %q does not parse back (%v)", c.spec, k.String(), err)
		}
	}
}

func TestParseKeysNamesWhatIsWrong(t *testing.T) {
	for _, c := range []struct {
		spec string
		n    int
		want string
	}{
		{"pareto", 10, `unknown key popularity "pareto"`},
		{"zipf", 10, "zipf needs its exponent"},
		{"zipf:", 10, "zipf needs its exponent"},
		{"zipf:x", 10, `exponent "x" is not a number`},
		{"zipf:0", 10, "above 0 (0 would be uniform)"},
		{"zipf:-1", 10, "above 0"},
		{"zipf:NaN", 10, "finite exponent"},
		{"zipf:Inf", 10, "finite exponent"},
		{"uniform:3", 10, "uniform takes no parameter"},
		{"uniform", 0, "0 keys: want at least 1"},
		{"zipf:1", -2, "-2 keys"},
		{"zipf:1", MaxZipfKeys + 1, "up to 10000000 keys"},
		{"zipf:1x0", 10, `copies "0": want a whole number`},
		{"zipf:1x", 10, `copies "": want a whole number`},
		{"zipf:1x3", 10, "10 keys do not split into 3 copies"},
		{"zipf:xx2", 10, `exponent "x" is not a number`},
	} {
		_, err := ParseKeys(c.spec, c.n)
		var se *SpecError
		if !errors.As(err, &se) || se.What != "keys" {
			t.Errorf("%q over %d: err %v, want a keys SpecError", c.spec, c.n, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.spec) {
			t.Errorf("%q over %d: %q, want it to quote the spec and say %q", c.spec, c.n, err, c.want)
		}
	}
}

// Zipf exponent 1 over 3 keys: shares 1, 1/2, 1/3 over 11/6 = 6/11, 3/11, 2/11.
func TestZipfProbabilitiesByHand(t *testing.T) {
	k, _ := ZipfKeys(3, 1)
	for i, want := range []float64{6.0 / 11, 3.0 / 11, 2.0 / 11, 0} {
		if got := k.Prob(i); math.Abs(got-want) > 1e-15 {
			t.Errorf("P(key %d) = %v, want %v", i, got, want)
		}
	}
	u, _ := UniformKeys(4)
	if u.Prob(3) != 0.25 || u.Prob(4) != 0 || u.Prob(-1) != 0 {
		t.Errorf("uniform over 4: %v %v %v", u.Prob(3), u.Prob(4), u.Prob(-1))
	}
}

func TestProbabilitiesSumToOne(t *testing.T) {
	for _, s := range []float64{0.5, 0.8, 1, 2} {
		k, _ := ZipfKeys(100_000, s)
		sum := 0.0
		for i := range k.N() {
			sum += k.Prob(i)
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("zipf:%v over %d keys: probabilities sum to %v", s, k.N(), sum)
		}
	}
}

// chiSquareCritical is the upper q point of chi-square with df degrees of freedom
// (Wilson-Hilferty: within 1% of the table from df = 3 on); z is the normal's q point.
func chiSquareCritical(df int, z float64) float64 {
	d := float64(df)
	a := 2 / (9 * d)
	return d * math.Pow(1-a+z*math.Sqrt(a), 3)
}

// The sampler's frequencies fit the probabilities: Pearson's chi-square below its
// 99.9% point (z = 3.09). The seed is fixed, so the test always gives the same answer.
func TestSamplerFrequenciesMatchProbabilities(t *testing.T) {
	const draws = 200_000
	for _, spec := range []string{"uniform", "zipf:0.8", "zipf:1", "zipf:1.3", "zipf:1x3"} {
		k, _ := ParseKeys(spec, 30)
		r := NewRand(42, keyStream)
		counts := make([]int, k.N())
		for range draws {
			counts[k.Sample(r)]++
		}
		chi := 0.0
		for i, c := range counts {
			e := draws * k.Prob(i)
			chi += (float64(c) - e) * (float64(c) - e) / e
		}
		if limit := chiSquareCritical(k.N()-1, 3.09); chi > limit {
			t.Errorf("%s over 30 keys: chi-square %.1f above its 99.9%% point %.1f", spec, chi, limit)
		}
	}
}

// One key is all the mass: every draw is key 0.
func TestOneKeyAlwaysDrawsKeyZero(t *testing.T) {
	k, _ := ZipfKeys(1, 0.8)
	r := NewRand(1, keyStream)
	for range 1000 {
		if i := k.Sample(r); i != 0 {
			t.Fatalf("drew key %d of 1", i)
		}
	}
}

// Copies: zipf:1x4 over 12 keys is four zipf:1 over 3, each asked a quarter of the time,
// so at four times the rate every key is asked as often as its twin in one copy.
func TestCopiesGiveEachKeyOneCopysShare(t *testing.T) {
	one, _ := ParseKeys("zipf:1", 3)
	four, err := ParseKeys("zipf:1x4", 12)
	if err != nil {
		t.Fatal(err)
	}
	if four.N() != 12 || four.Copies() != 4 || four.String() != "zipf:1x4" {
		t.Fatalf("N %d copies %d %q, want 12, 4, zipf:1x4", four.N(), four.Copies(), four.String())
	}
	sum := 0.0
	for i := range four.N() {
		sum += four.Prob(i)
		if got, want := 4*four.Prob(i), one.Prob(i%3); math.Abs(got-want) > 1e-12 {
			t.Errorf("key %d: 4 x %v = %v, want its twin's %v", i, four.Prob(i), got, want)
		}
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("shares sum to %v", sum)
	}
	if back, err := ParseKeys(four.String(), 12); err != nil || back.Copies() != 4 {
		t.Errorf("%q does not parse back to 4 copies (%v)", four.String(), err)
	}
	if one.Copies() != 1 {
		t.Errorf("a spec without copies has %d", one.Copies())
	}
}
