package contention

import "testing"

// The same seed replays the same requests; another hold distribution leaves the keys
// as they were, so two runs differ only in what was changed.
func TestSamplerReplaysItsSeed(t *testing.T) {
	keys, _ := ParseKeys("zipf:1", 100)
	exp, _ := ParseHold("exp:20ms")
	logn, _ := ParseHold("lognormal:20ms,0.5")
	a, b, c := NewSampler(keys, exp, 9), NewSampler(keys, exp, 9), NewSampler(keys, logn, 9)
	other := NewSampler(keys, exp, 10)
	sameAsOther := 0
	for i := range 1000 {
		ka, ha := a.Key(), a.Hold()
		if kb, hb := b.Key(), b.Hold(); ka != kb || ha != hb {
			t.Fatalf("draw %d: (%d, %v) then (%d, %v) from the same seed", i, ka, ha, kb, hb)
		}
		if kc, _ := c.Key(), c.Hold(); kc != ka {
			t.Fatalf("draw %d: key %d with exp holds, %d with lognormal", i, ka, kc)
		}
		if ko, _ := other.Key(), other.Hold(); ko == ka {
			sameAsOther++
		}
	}
	if sameAsOther > 500 {
		t.Errorf("seeds 9 and 10 drew the same key %d times in 1000", sameAsOther)
	}
}
