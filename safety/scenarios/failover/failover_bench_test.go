package failover

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
)

// BenchmarkFailoverLossTrial runs b.N failover-loss trials (no guard, kill at once)
// and reports the median trial, set-up included, the run's wall time per trial and its
// trials per minute: one at a time on a fresh deployment per trial, on one re-formed
// deployment, and on two in rotation; then 2 to 8 trials at once, each with two
// deployments in rotation (the default is parallel-4). Every trial must still prove its
// fault.
func BenchmarkFailoverLossTrial(b *testing.B) {
	for _, c := range []struct {
		name   string
		params lab.Params
	}{
		{"fresh", lab.Params{"reuse": "off", "parallel": "1"}},
		{"reuse-one", lab.Params{"deployments": "1", "parallel": "1"}},
		{"reuse-rotating", lab.Params{"parallel": "1"}},
		{"parallel-2", lab.Params{"parallel": "2"}},
		{"parallel-4", lab.Params{"parallel": "4"}},
		{"parallel-6", lab.Params{"parallel": "6"}},
		{"parallel-8", lab.Params{"parallel": "8"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			params := lab.Params{"modes": "none", "delays": "0ms"}
			for k, v := range c.params {
				params[k] = v
			}
			s, err := lab.Lookup("failover-loss")
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
			defer cancel()
			b.ResetTimer()
			rep, err := lab.Run(ctx, s, benchEnv(b, b.N, params))
			b.StopTimer()
			if err != nil {
				b.Fatal(err)
			}
			v := rep.Variants[0]
			proven := 0
			for _, tr := range v.Trials {
				if tr.Outcome == results.Judged && len(tr.Proof) > 0 {
					proven++
				}
			}
			if proven != v.Tally.Trials {
				b.Errorf("%d of %d trials proved their fault (fault not produced %d, errors %s; notes %v)", proven, v.Tally.Trials, v.Tally.FaultNotProduced, v.Tally.ErrorsString(), v.Notes)
			}
			b.ReportMetric(v.Tally.TrialSeconds.P50*1000, "ms/trial")
			b.ReportMetric(rep.Seconds*1000/float64(v.Tally.Trials), "wall-ms/trial")
			b.ReportMetric(rep.TrialsPerMinute, "trials/min")
		})
	}
}

// benchEnv is labtest.TestEnv for benchmarks: quiet, topologies closed when b ends.
func benchEnv(b *testing.B, trials int, params lab.Params) *lab.Env {
	env := labtest.TestEnv(b, trials, params)
	env.OutDir, env.Logf = "", nil
	return env
}
