package plan

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/adr"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/stats"
)

// A cell at the workload's own rate runs as it is when its samples take at most
// oneCopyLongest; a slower one runs copies of the workload's keys at copies x its
// rate (adr.KeyCopiesModel), sized to measure for about copiesMeasured with at most
// copiesInFlight requests expected held or waiting at once.
const (
	oneCopyLongest = 2 * time.Minute
	copiesMeasured = 45 * time.Second
	copiesInFlight = 128
)

// samplesNeeded are the acquisitions that put 10 samples past the budget's
// percentile (p99: 1000).
func samplesNeeded(w *workload.Workload) float64 {
	q, _ := w.SLO.Percentile.Quantile() // p99 or p99.9: the workload allows no other
	return 10 / (1 - q)
}

// benchCopies is how many copies of the workload's keys a cost cell runs: 1 when the
// workload's own rate fills the samples within oneCopyLongest.
func benchCopies(w *workload.Workload) int {
	need := samplesNeeded(w)
	if need/w.LockRate <= oneCopyLongest.Seconds() {
		return 1
	}
	want := math.Ceil(need / (w.LockRate * copiesMeasured.Seconds()))
	most := math.Floor(copiesInFlight / (w.LockRate * inFlightSeconds(w)))
	return max(2, int(min(want, most)))
}

// inFlightSeconds is how long a request is held or waits at the floor's hottest key,
// on average (M/D/1: hold x (1 + rho / (2 (1 - rho))); the floor's own check rules
// out rho >= 1 before any lock step).
func inFlightSeconds(w *workload.Workload) float64 {
	rho := min(w.Occupancy.Busiest, 0.99)
	return w.HoldD.Seconds() * (1 + rho/(2*(1-rho)))
}

// benchDuration is long enough for the budget's percentile to rest on 10 samples past
// it at copies x the workload's rate, and at least 10 s.
func benchDuration(w *workload.Workload, copies int) time.Duration {
	need := samplesNeeded(w) / (w.LockRate * float64(copies))
	return max(10*time.Second, time.Duration(math.Ceil(need))*time.Second)
}

// benchWarmup lets each key's queue fill before the measuring starts: three times a
// request's mean time in flight, and at least 2 s.
func benchWarmup(w *workload.Workload) time.Duration {
	return max(2*time.Second, time.Duration(math.Ceil(3*inFlightSeconds(w)))*time.Second)
}

// benchDrain is how long a cell goes on after its measured part, serving the requests
// due in it: about the longest wait and hold, taken as the warm-up's length.
func benchDrain(w *workload.Workload) time.Duration { return benchWarmup(w) }

// openClients is enough clients for copies x the open-loop rate: twice the arrivals
// that can be in flight while one waits up to the budget and holds (at least 4); a
// copies cell at most twice the requests it expects in flight (each client may hold a
// connection: PostgreSQL's advisory lock waits in one).
func openClients(w *workload.Workload, copies int) int {
	budget, _ := workload.PositiveDuration(w.Budget.Max)
	n := max(4, int(math.Ceil(2*w.LockRate*float64(copies)*(w.HoldD+budget).Seconds())))
	if copies > 1 {
		n = min(n, 2*int(math.Ceil(w.LockRate*float64(copies)*inFlightSeconds(w))))
	}
	return max(4, n)
}

// keyArgs spread a cell's requests over copies copies of the workload's keys as the
// workload spreads them: its one key, or drawn uniform or by its zipf law.
func keyArgs(w *workload.Workload, copies int) []string {
	n := w.Keys.Count
	switch {
	case w.Keys.Distribution == workload.Zipf && n > 1:
		dist := "zipf:" + adr.Plain(w.Keys.ZipfExponent)
		if copies > 1 {
			dist += "x" + strconv.Itoa(copies)
		}
		return []string{"--keys", strconv.Itoa(n * copies), "--key-dist", dist}
	case n == 1 && copies == 1:
		return []string{"--keys", "1"}
	}
	return []string{"--keys", strconv.Itoa(n * copies), "--key-dist", "uniform"}
}

func (p *Plan) benchSteps(w *workload.Workload, in *adr.Inputs, out string) {
	copies := benchCopies(w)
	var missing, unchecked []string
	for _, s := range planStrategies(w) {
		cell, checked := benchCellAt(w, in, s)
		if cell == "" {
			missing = append(missing, s)
			continue
		}
		p.Have = append(p.Have, fmt.Sprintf("benchmark of %s at the workload's load: %s", s, cell))
		if !checked {
			unchecked = append(unchecked, s)
		}
	}
	if len(missing) > 0 {
		p.benchStep(w, missing, copies, filepath.Join(out, "bench"), "")
	}
	if copies > 1 {
		p.benchStep(w, append(missing, unchecked...), 2*copies, filepath.Join(out, "bench-check"),
			fmt.Sprintf("the %s model's check: the same cells at %d copies, whose p99 must agree with %d copies'",
				adr.KeyCopiesModel, 2*copies, copies))
	}
}

// benchStep times strategies in one open-loop cell each at copies copies of the
// workload's keys; check, when not empty, says the step checks the key-copies model.
func (p *Plan) benchStep(w *workload.Workload, strategies []string, copies int, dir, check string) {
	if len(strategies) == 0 {
		return
	}
	warmup, dur, clients := benchWarmup(w), benchDuration(w, copies), openClients(w, copies)
	rate := adr.Plain(w.LockRate * float64(copies))
	keys := fmt.Sprintf("%d %s", w.Keys.Count, w.Keys.Distribution)
	what := fmt.Sprintf("one open-loop cell per strategy (%s) at %s locks/s (poisson arrivals), hold %v, TTL %v, "+
		"%d clients, keys %s", strings.Join(strategies, ", "), rate, w.HoldD, w.TTLD, clients, keys)
	why := fmt.Sprintf("the cost at the rate and the capacity within %s (%v measured per cell: 10 samples past the "+
		"percentile)", w.SLO, dur)
	if copies > 1 {
		what += fmt.Sprintf(", in %d copies (%s model: each key asked at the workload's own %s/s)", copies,
			adr.KeyCopiesModel, adr.Plain(w.LockRate))
		why = fmt.Sprintf("the cost at the workload's load within %s, from %d copies of its keys: %v measured per cell "+
			"for 10 samples past the percentile, where the workload's own rate would take %v", w.SLO, copies, dur,
			benchDuration(w, 1))
	}
	if check != "" {
		why = check
	}
	args := append([]string{"run", "--strategies", strings.Join(strategies, ","), "--clients",
		strconv.Itoa(clients)}, keyArgs(w, copies)...)
	per := warmup + dur + benchDrain(w) + measuredCellOverhead
	p.add(Step{
		What: what,
		Why:  why,
		measure: append(args, "--hold", w.HoldD.String(), "--ttl", w.TTLD.String(), "--load", "open", "--rate", rate,
			"--arrival", "poisson", "--duration", dur.String(), "--warmup", warmup.String(), "--seed", "1"),
		Estimate: time.Duration(len(strategies)) * per,
		EstimateFrom: fmt.Sprintf("%d cells x %v (the warm-up, the measured part and as long as the warm-up again to "+
			"serve the requests due in it): %s", len(strategies), per, measuredCellFrom),
		Out: dir,
	})
}

// benchCellAt names a given open-loop cell of strategy s that stands for the workload's
// load (its own, or copies of it: adr.CopiesOf); checked says no check is needed (one
// copy) or a cell at another copy count is there.
func benchCellAt(w *workload.Workload, in *adr.Inputs, s string) (cell string, checked bool) {
	counts := map[int]bool{}
	for _, r := range in.Runs {
		for _, c := range r.Cells {
			if c.Strategy != s {
				continue
			}
			if n := adr.CopiesOf(w, stats.ConditionOf(&c)); n > 0 {
				counts[n] = true
				if cell == "" || n == 1 {
					cell = c.Name
				}
			}
		}
	}
	return cell, counts[1] || len(counts) > 1
}
