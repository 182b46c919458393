package ttl

import (
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// ttlSeries are the trade-off's two sides against the TTL: one curve per hold
// distribution (with and without a watchdog) of the probability the TTL expired
// mid-work, and the measured time a crashed holder's lock stayed blocked.
func ttlSeries(c ttlConfig, variants []*ttlVariant) []results.Series {
	var out []results.Series
	for i := range c.dists {
		d := &c.dists[i]
		for _, watchdog := range []bool{false, true} {
			s := results.Series{Name: "hold=" + d.name + withWatchdog(watchdog), X: "TTL (ms)", Y: "probability the TTL " +
				"expired mid-work"}
			for _, v := range variants {
				if v.dist != d || v.watchdog != watchdog {
					continue
				}
				if p, ok := results.VariantPoint(lab.Millis(v.ttl), v.Result(), results.ExpiredMidWork); ok {
					s.Points = append(s.Points, p)
				}
			}
			out = append(out, s)
		}
	}
	for _, watchdog := range []bool{false, true} {
		s := results.Series{Name: "blocked after crash" + withWatchdog(watchdog), X: blockedAxis, Y: "time the lock stayed " +
			"blocked after its holder crashed (ms, median of judged trials)"}
		for _, v := range variants {
			if v.dist != nil || v.watchdog != watchdog {
				continue
			}
			var blocked results.Distribution
			for _, tr := range v.Trials {
				if b, ok := tr.Inputs["blocked_ms"]; ok && tr.Outcome == results.Judged {
					blocked.Add(b)
				}
			}
			if blocked.N > 0 {
				s.Points = append(s.Points, results.ValuePoint(lab.Millis(v.ttl), blocked.P50))
			}
		}
		out = append(out, s)
	}
	model := results.Series{Name: "model: blocked = TTL", X: blockedAxis, Y: out[len(out)-1].Y}
	for _, ttl := range c.ttls {
		model.Points = append(model.Points, results.ValuePoint(lab.Millis(ttl), lab.Millis(ttl)))
	}
	return append(out, model)
}

// blockedAxis is the blocked side's x axis, named apart so that it gets its own figure.
const blockedAxis = "TTL of the crashed holder's lock (ms)"
