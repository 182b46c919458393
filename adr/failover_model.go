package adr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/safety/results"
)

// CrashModel is the crash-failover model: the master dies, a replica is promoted,
// and a held lock is lost exactly when it was granted within the promoted replica's
// lag L before the crash (the replica never had it). A lock held at the crash was
// granted a uniform time into its hold h, so P(lost | held) = E[min(L, h)] / h, with L
// the lag measured (replication-lag) at the workload's write rate.
type CrashModel struct {
	LagVariant string  // the replication-lag variant the lag is read from
	LagRate    float64 // its measured background writes a second
	WriteRate  float64 // the workload's: a SET and a release per lock, plus its other writes
	Others     float64 // the workload's other writes a second to the same Redis
	Samples    int     // lag samples (every replica, every probe)
	Trials     int     // the trials they came from: the interval resamples these
	// TeamLag is the workload's own lag, read instead of the lab's when given.
	TeamLag *workload.Lag
	P       Expected
	Check   CrashCheck
}

// CrashCheck holds the model against failover-loss with no guard: per kill delay d,
// the model predicts the share of trials whose promoted replica had not applied the
// grant when the master died, beside the measured share lost and its interval.
type CrashCheck struct {
	Rows []CrashCheckRow
	// Within counts the delays whose measured interval contains the prediction.
	Within int
	// Agree counts the judged trials whose outcome (lost or kept) the model called.
	Agree, Trials int
}

// failure says why the check does not let the model into the figures: no check ran,
// or a kill delay's measured interval misses the prediction; "" when each holds it.
func (c CrashCheck) failure() string {
	if len(c.Rows) == 0 {
		return "the crash-failover model is unchecked: no failover-loss trial with no guard and measured lags " +
			"(`lockbench safety --scenario failover-loss --param modes=none`)"
	}
	var rows []string
	for _, r := range c.Rows {
		rows = append(rows, r.text())
	}
	return missedCheck("the crash-failover model", "kill delays'", c.Within, rows)
}

// missedCheck says how a model's lab check missed: how many of its rows' intervals miss
// the prediction, each row said; "" when every one holds it.
func missedCheck(model, rowsOf string, within int, rows []string) string {
	if within == len(rows) {
		return ""
	}
	return fmt.Sprintf("%s failed its check: %d of %d %s intervals miss its prediction (%s)", model,
		len(rows)-within, len(rows), rowsOf, strings.Join(rows, "; "))
}

func (r CrashCheckRow) text() string {
	return fmt.Sprintf("%s ms: predicted %s, lost %s", strconv.FormatFloat(r.DelayMs, 'f', -1, 64), percent(r.Predicted),
		r.Measured)
}

// CrashCheckRow is one kill delay of the check.
type CrashCheckRow struct {
	Variant   string
	DelayMs   float64
	Predicted float64
	Measured  results.Proportion
}

// crashModel computes the model from the reports, or says why it cannot.
func crashModel(w *workload.Workload, reports []*results.Report) (*CrashModel, string) {
	m := &CrashModel{WriteRate: 2*w.LockRate + w.OtherWrites, Others: w.OtherWrites}
	if w.ReplicationLag != nil {
		m.TeamLag, m.P = w.ReplicationLag, teamLagP(w.ReplicationLag, w.HoldD)
		m.Check = crashCheck(reports)
		return m, ""
	}
	trials, why := m.LagAt(reports)
	if why != "" {
		return nil, why
	}
	h := float64(w.HoldD) / float64(time.Millisecond)
	share := func(l float64) float64 { return math.Min(l, h) / h }
	m.P = trialBootstrap(trials, share)
	m.Trials = len(trials)
	for _, lags := range trials {
		m.Samples += len(lags)
	}
	m.Check = crashCheck(reports)
	return m, ""
}

// teamLagP bounds E[min(lag, hold)] / hold from the team's two percentiles: half the
// lags are below the p50, 1% above the p99, and min(lag, hold) / hold grows with the lag
// (at most 1), so the lower end counts only what must be at least each percentile, the
// upper end each band at its top; the central figure is their midpoint.
func teamLagP(l *workload.Lag, hold time.Duration) Expected {
	share := func(d time.Duration) float64 { return math.Min(float64(d), float64(hold)) / float64(hold) }
	lo := 0.49*share(l.P50D) + 0.01*share(l.P99D)
	hi := 0.5*share(l.P50D) + 0.49*share(l.P99D) + 0.01
	return Expected{Central: (lo + hi) / 2, Lo: lo, Hi: hi}
}

// LagAt reads the lag samples of the replication-lag variant whose measured write rate
// is the smallest at or above the workload's, one slice per trial that has any.
func (m *CrashModel) LagAt(reports []*results.Report) ([][]float64, string) {
	type point struct {
		v    *results.Variant
		rate float64
	}
	var points []point
	for _, rep := range reports {
		if rep == nil || rep.Scenario != "replication-lag" {
			continue
		}
		for _, v := range rep.Variants {
			var rate float64
			var n int
			for _, tr := range v.Trials {
				if r, ok := tr.Inputs["load_per_s"]; ok {
					rate += r
					n++
				}
			}
			if n > 0 {
				points = append(points, point{v, rate / float64(n)})
			}
		}
	}
	if len(points) == 0 {
		return nil, "no replication-lag results given (`lockbench safety --scenario replication-lag`)"
	}
	sort.Slice(points, func(i, j int) bool { return points[i].rate < points[j].rate })
	i := sort.Search(len(points), func(i int) bool { return points[i].rate >= m.WriteRate })
	if i == len(points) {
		return nil, fmt.Sprintf(
			"replication lag measured up to %.0f writes/s, below the workload's %.0f (`--param rates=...` of "+
				"replication-lag)", points[len(points)-1].rate, m.WriteRate)
	}
	m.LagVariant, m.LagRate = points[i].v.Name, points[i].rate
	var trials [][]float64
	for _, tr := range points[i].v.Trials {
		var lags []float64
		for name, x := range tr.Inputs {
			if strings.HasPrefix(name, "lag_ms_") {
				lags = append(lags, x)
			}
		}
		if len(lags) > 0 {
			trials = append(trials, lags)
		}
	}
	if len(trials) == 0 {
		return nil, "replication-lag variant " + m.LagVariant + " has no lag samples"
	}
	return trials, ""
}

// bootstrapDraws is how many resamples of the trials an interval is read from.
const bootstrapDraws = 2000

// trialBootstrap is the mean of f over every sample, with a 95% interval that resamples
// whole trials: one trial's samples share its server's state and are not independent,
// so a thousand of them from five trials know no more of the next trial than five do.
// One trial says nothing of the spread between trials: its interval is 0-1.
func trialBootstrap(trials [][]float64, f func(float64) float64) Expected {
	sums, counts := make([]float64, len(trials)), make([]float64, len(trials))
	var sum, n float64
	for i, lags := range trials {
		for _, l := range lags {
			sums[i] += f(l)
		}
		counts[i] = float64(len(lags))
		sum, n = sum+sums[i], n+counts[i]
	}
	central := sum / n
	if len(trials) < 2 {
		return Expected{Central: central, Lo: 0, Hi: 1}
	}
	rng := rand.New(rand.NewPCG(1, uint64(len(trials)))) // the same results give the same interval
	means := make([]float64, bootstrapDraws)
	for d := range means {
		var s, c float64
		for range trials {
			i := rng.IntN(len(trials))
			s, c = s+sums[i], c+counts[i]
		}
		means[d] = s / c
	}
	sort.Float64s(means)
	return Expected{Central: central, Lo: means[int(0.025*bootstrapDraws)], Hi: means[int(0.975*bootstrapDraws)-1]}
}

// crashCheck compares the model's rule (lost exactly when the promoted replica had not
// applied the grant at the kill) with failover-loss's judged trials with no guard.
func crashCheck(reports []*results.Report) CrashCheck {
	var c CrashCheck
	for _, rep := range reports {
		if rep == nil || rep.Scenario != "failover-loss" {
			continue
		}
		for _, v := range rep.Variants {
			if !strings.HasPrefix(v.Name, "none-delay-") {
				continue
			}
			row := CrashCheckRow{Variant: v.Name}
			lost, over, n := 0, 0, 0
			for _, tr := range v.Trials {
				d, okDelay := tr.Inputs["delay_ms"]
				predicted, okLag := notApplied(tr.Inputs, d)
				if tr.Outcome != results.Judged || !okLag || !okDelay {
					continue
				}
				row.DelayMs, n = d, n+1
				was := tr.Counts[results.LostLocks] > 0
				if predicted {
					over++
				}
				if was {
					lost++
				}
				if predicted == was {
					c.Agree++
				}
				c.Trials++
			}
			if n == 0 {
				continue
			}
			row.Predicted, row.Measured = float64(over)/float64(n), results.ProportionOf(lost, n)
			if row.Measured.Lo <= row.Predicted && row.Predicted <= row.Measured.Hi {
				c.Within++
			}
			c.Rows = append(c.Rows, row)
		}
	}
	sort.Slice(c.Rows, func(i, j int) bool { return c.Rows[i].DelayMs < c.Rows[j].DelayMs })
	return c
}

// notApplied says whether the promoted replica had not yet applied the grant when the
// master died: its measured pause ended after the kill (the lab's own reading), or,
// without that, its lag exceeded the delay from grant to kill.
func notApplied(in map[string]float64, delay float64) (bool, bool) {
	if margin, ok := in["pause_end_after_kill_promoted_ms"]; ok {
		return margin > 0, true
	}
	lag, ok := in["lag_promoted_ms"]
	return lag > delay, ok
}

// Line is the model and its check in one line for the ADR.
func (m *CrashModel) Line() string {
	check := "no failover-loss trials with measured lags to check it against"
	if len(m.Check.Rows) > 0 {
		var rows []string
		for _, r := range m.Check.Rows {
			rows = append(rows, r.text())
		}
		check = fmt.Sprintf("checked against failover-loss with no guard: %d of %d delays' intervals contain the "+
			"prediction, %d of %d judged trials called (%s)",
			m.Check.Within, len(m.Check.Rows), m.Check.Agree, m.Check.Trials, strings.Join(rows, "; "))
	}
	if l := m.TeamLag; l != nil {
		return fmt.Sprintf("crash failover against the team's replication lag: a held lock is lost when granted "+
			"within the promoted replica's lag before the crash, so P(lost | held) = E[min(lag, hold)] / hold, between %s "+
			"and %s from the workload's lag (p50 %v, p99 %v: %s; two percentiles bound it, no more), midpoint %s; %s",
			percent(m.P.Lo), percent(m.P.Hi), l.P50D, l.P99D, l.Source, percent(m.P.Central), check)
	}
	return fmt.Sprintf("crash failover against the lab's replication lag (a loopback replica's, not the team's: "+
		"give replication_lag in the workload): a held lock is lost when granted within the "+
		"promoted replica's lag before the crash, so P(lost | held) = E[min(lag, hold)] / hold = %s (%s), from %d lag "+
		"samples in %d trials of replication-lag `%s` (%.0f writes/s measured, the workload writes %.0f/s: a SET and a "+
		"release per lock plus %s others); %s",
		percent(m.P.Central), percentSpan(m.P.Lo, m.P.Hi), m.Samples, m.Trials, m.LagVariant, m.LagRate, m.WriteRate,
		Plain(m.Others), check)
}
