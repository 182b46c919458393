package lag

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/safety/results"
)

// windowAxis is shared by P(lag > x) and failover-loss's P(lost) against delay, so
// that the figures draw them together: the loss window is the lag.
const windowAxis = "ms after the master acknowledged (replication lag; for failover-loss: delay from grant to master " +
	"kill)"

// survivalAt are the x of P(lag > x), in ms.
var survivalAt = []float64{0, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100}

// pooledLags are every lag a variant's judged trials measured, sorted, and the mean
// background rate they ran under.
func pooledLags(v *lagVariant) (lags []float64, rate float64) {
	n := 0
	for _, tr := range v.Trials {
		if tr.Outcome != results.Judged {
			continue
		}
		for name, x := range tr.Inputs {
			if strings.HasPrefix(name, "lag_ms_") {
				lags = append(lags, x)
			}
		}
		rate += tr.Inputs["load_per_s"]
		n++
	}
	if n > 0 {
		rate /= float64(n)
	}
	slices.Sort(lags)
	return lags, rate
}

// lagSeries: lag percentiles against the measured background rate, and per rate the
// share of (probe, replica) reads still missing the write x ms after the ack (each
// observation counted as one trial of the interval: probes of one trial are not
// independent, so the bars are narrower than the truth).
func lagSeries(variants []*lagVariant) []results.Series {
	quantiles := []struct {
		name string
		q    float64
	}{{"p50", 0.5}, {"p99", 0.99}, {"p99.9", 0.999}, {"max", 1}}
	var out []results.Series
	for _, q := range quantiles {
		s := results.Series{Name: "lag " + q.name, X: "background write rate to the master (writes/s, measured)",
			Y: "replication lag: SET acknowledged to visible on a replica (ms)"}
		for _, v := range variants {
			if lags, rate := pooledLags(v); len(lags) > 0 {
				s.Points = append(s.Points, results.ValuePoint(rate, results.Quantile(lags, q.q)))
			}
		}
		out = append(out, s)
	}
	for _, v := range variants {
		lags, rate := pooledLags(v)
		if len(lags) == 0 {
			continue
		}
		s := results.Series{Name: fmt.Sprintf("P(lag > x), %s (%.0f writes/s)", v.Name, rate), X: windowAxis,
			Y: "probability a replica lacks the write (lag) / the lock was lost (failover-loss)"}
		for _, x := range survivalAt {
			i, _ := slices.BinarySearch(lags, x)
			for i < len(lags) && lags[i] <= x {
				i++
			}
			if p, ok := results.ProbabilityPoint(x, len(lags)-i, len(lags)); ok {
				s.Points = append(s.Points, p)
			}
		}
		out = append(out, s)
	}
	return out
}

// failoverOverlay reads a failover-loss run's loss-vs-delay series from path (its
// output folder or its results.json), re-labelled onto the window axis.
func failoverOverlay(path string) ([]results.Series, error) {
	dir := path
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		dir = filepath.Dir(path)
	}
	res, err := results.Read(dir)
	if err != nil {
		return nil, err
	}
	var out []results.Series
	for _, rep := range res.Reports {
		if rep.Scenario != "failover-loss" {
			continue
		}
		for _, s := range rep.Series {
			if strings.HasPrefix(s.X, "delay from grant to master kill") {
				s.Name, s.X = "failover-loss "+s.Name, windowAxis
				out = append(out, s)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no failover-loss series against delay", dir)
	}
	return out, nil
}
