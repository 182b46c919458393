package capacity

import (
	"fmt"

	"github.com/lockbench/lockbench/stats"
)

// Faults is the worst repeat's share of requests that failed (errors) or were never
// served (drops), and which it was.
func Faults(g *stats.Group) (float64, string) {
	var worst float64
	kind := ""
	for _, c := range g.Repeats {
		var errs int64
		for _, n := range c.Errors {
			errs += n
		}
		requests := float64(max(c.Attempts+c.Load.Dropped, 1))
		if e := float64(errs) / requests; e > worst {
			worst, kind = e, "errors"
		}
		if d := float64(c.Load.Dropped) / requests; d > worst {
			worst, kind = d, "drops"
		}
	}
	return worst, kind
}

// FaultMark is the mark a table or figure puts beside a group whose errors or drops
// exceed MaxFaultShare; empty otherwise.
func FaultMark(g *stats.Group) string {
	if share, kind := Faults(g); share > MaxFaultShare {
		return fmt.Sprintf("⚠ %s %.2f%%", kind, 100*share)
	}
	return ""
}
