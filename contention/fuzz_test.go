package contention

import (
	"math"
	"testing"
)

// No spec may panic the parsers, and one that parses prints back to itself.
func FuzzParseHold(f *testing.F) {
	for _, s := range []string{"const:20ms", "exp:20ms", "lognormal:20ms,0.5", "20ms", "exp:", "lognormal:1ns,5", ":,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		h, err := ParseHold(spec)
		if err != nil {
			return
		}
		back, err := ParseHold(h.String())
		if err != nil || back != h {
			t.Fatalf("%q parsed as %q, which reads back as %v (%v)", spec, h, back, err)
		}
		if m2 := h.SecondMoment(); !(m2 > 0) || math.IsInf(m2, 0) {
			t.Fatalf("%q: E[S^2] = %v", spec, m2)
		}
		if d := h.Sample(NewRand(1, holdStream)); d < 0 {
			t.Fatalf("%q: sampled %v", spec, d)
		}
	})
}

func FuzzParseKeys(f *testing.F) {
	for _, s := range []string{"uniform", "zipf:1", "zipf:0.8", "zipf:", "zipf:1e-300", "zipf:1000"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, spec string, n int) {
		n %= 100_000 // a table per key: keep each input small
		k, err := ParseKeys(spec, n)
		if err != nil {
			return
		}
		if i := k.Sample(NewRand(1, keyStream)); i < 0 || i >= k.N() {
			t.Fatalf("%q over %d: drew key %d", spec, n, i)
		}
		if p := k.Prob(0); !(p > 0 && p <= 1) {
			t.Fatalf("%q over %d: P(key 0) = %v", spec, n, p)
		}
	})
}
