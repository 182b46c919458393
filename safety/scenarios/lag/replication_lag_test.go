package lag

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
)

// The replication lag grows with the write rate: labtest.RunScenario asserts every probe was
// seen on both replicas; here the pooled median under saturation is above idle's, at
// some x the saturated P(lag > x) has its interval above idle's (the tails are the
// machine's scheduling noise as much as the load, so no percentile of them is
// compared), and P(lag > x) falls with x for every rate.
func TestReplicationLag(t *testing.T) {
	rep := labtest.RunScenario(t, "replication-lag", 2, lab.Params{"rates": "0", "saturate": "on", "probes": "60", "probe-interval": "2ms"})
	var p50 []float64
	survival := map[string][]results.Point{}
	for _, s := range rep.Series {
		switch {
		case s.Name == "lag p50":
			for _, p := range s.Points {
				p50 = append(p50, p.Y)
			}
		case strings.HasPrefix(s.Name, "P(lag > x)"):
			survival[strings.Fields(strings.TrimPrefix(s.Name, "P(lag > x), "))[0]] = s.Points
			for i := 1; i < len(s.Points); i++ {
				if s.Points[i].Y > s.Points[i-1].Y {
					t.Errorf("%s rises from x=%g to x=%g", s.Name, s.Points[i-1].X, s.Points[i].X)
				}
			}
		}
	}
	if len(p50) != 2 {
		t.Fatalf("lag p50 has %d points, want idle and saturate", len(p50))
	}
	if idle, saturated := p50[0], p50[1]; saturated <= idle {
		t.Errorf("median lag %.3f ms under saturation, %.3f ms idle: want it higher under load", saturated, idle)
	}
	idle, saturated := survival["rate-0"], survival["saturate"]
	separated := false
	for i := range min(len(idle), len(saturated)) {
		separated = separated || saturated[i].Lo > idle[i].Hi
	}
	if !separated {
		t.Errorf("P(lag > x) under saturation %+v never above idle's %+v with separate intervals", saturated, idle)
	}
}
