package adr

import "testing"

// A missing measurement names each scenario that would make it once: the two sides
// of a fault are often one scenario, and were once printed glued together.
func TestScenariosOfNamesEachOnce(t *testing.T) {
	cases := []struct {
		e    Exposure
		want string
	}{
		{Exposure{MutexIn: "pause-past-ttl", DataIn: "pause-past-ttl"}, "pause-past-ttl"},
		{Exposure{MutexIn: "failover-loss"}, "failover-loss"},
		{Exposure{DataIn: "lost-updates"}, "lost-updates"},
		{Exposure{MutexIn: "failover-loss", DataIn: "lost-updates"}, "failover-loss` or `lost-updates"},
		{Exposure{}, ""},
	}
	for _, c := range cases {
		if got := scenariosOf(c.e); got != c.want {
			t.Errorf("scenariosOf(%q, %q) = %q, want %q", c.e.MutexIn, c.e.DataIn, got, c.want)
		}
	}
}
