package workload

import (
	"math"
	"testing"
	"time"

	"github.com/lockbench/lockbench/adr/adrtest"
)

// 200 locks/s held 20 ms over 4 uniform keys: each key is held 200/4 x 0.02 = 1.0 of
// the time: infeasible. Over 10 keys: u = 0.4 each; any held = 1 - 0.6^10 = 0.993953;
// locks held = 4.
func TestUniformKeysShareTheRate(t *testing.T) {
	if o := OccupancyOf(200, 20*time.Millisecond, Keys{Count: 4, Distribution: Uniform}); o.infeasible(20*time.Millisecond) == "" {
		t.Errorf("4 keys at u = %v: not refused", o.Busiest)
	}
	o := OccupancyOf(200, 20*time.Millisecond, Keys{Count: 10, Distribution: Uniform})
	adrtest.Near(t, "busiest", o.Busiest, 0.4)
	adrtest.Near(t, "any held", o.AnyHeld, 1-math.Pow(0.6, 10))
	adrtest.Near(t, "locks held", o.LocksHeld, 4)
}

// Zipf with exponent 1 over 3 keys: shares 1, 1/2, 1/3 over 11/6 = 6/11, 3/11, 2/11.
// 11 locks/s held 100 ms: u = 0.6, 0.3, 0.2; any held = 1 - 0.4 x 0.7 x 0.8 = 0.776;
// the busiest key takes 6 locks/s.
func TestZipfKeysByHand(t *testing.T) {
	o := OccupancyOf(11, 100*time.Millisecond, Keys{Count: 3, Distribution: Zipf, ZipfExponent: 1})
	adrtest.Near(t, "busiest", o.Busiest, 0.6)
	adrtest.Near(t, "busiest rate", o.BusiestRate, 6)
	adrtest.Near(t, "any held", o.AnyHeld, 0.776)
	adrtest.Near(t, "locks held", o.LocksHeld, 1.1)
}

func TestFoundHeldByHand(t *testing.T) {
	if o := OccupancyOf(10, 50*time.Millisecond, Keys{Count: 4, Distribution: Uniform}); math.Abs(o.FoundHeld-0.125) > 1e-12 {
		t.Errorf("uniform over 4 keys: found held %v, want 10 x 0.05 / 4 = 0.125", o.FoundHeld)
	}
	// Zipf over 2 keys, exponent 1: shares 2/3 and 1/3; 3/s held 100 ms gives u = 0.2
	// and 0.1, so a request finds its key held 2/3 x 0.2 + 1/3 x 0.1 = 1/6 of the time.
	if o := OccupancyOf(3, 100*time.Millisecond, Keys{Count: 2, Distribution: Zipf, ZipfExponent: 1}); math.Abs(o.FoundHeld-1.0/6) > 1e-12 {
		t.Errorf("zipf over 2 keys: found held %v, want 1/6", o.FoundHeld)
	}
}
