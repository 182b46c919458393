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
	"github.com/lockbench/lockbench/sweep"
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
// on average (M/G/1: E[S] + rho E[S^2] / (2 E[S] (1 - rho)); the floor's own check
// rules out rho >= 1 before any lock step).
func inFlightSeconds(w *workload.Workload) float64 {
	m1 := w.HoldD.Seconds()
	h, err := w.HoldOf(w.HoldD)
	if m1 == 0 || err != nil {
		return m1
	}
	rho := min(w.Occupancy.Busiest, 0.99)
	return m1 + rho*h.SecondMoment()/(2*m1*(1-rho))
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
// that can be in flight while one waits up to the budget and holds; a copies cell at
// most twice the requests it expects in flight (each client may hold a connection:
// PostgreSQL's advisory lock waits in one). At least leastClients either way.
func openClients(w *workload.Workload, copies int) int {
	budget, _ := workload.PositiveDuration(w.Budget.Max)
	n := int(math.Ceil(2 * w.LockRate * float64(copies) * (w.HoldD + budget).Seconds()))
	if copies > 1 {
		n = min(n, 2*int(math.Ceil(w.LockRate*float64(copies)*inFlightSeconds(w))))
	}
	return max(leastClients, n)
}

// leastClients is the fewest clients an open cell gets: a few requests stuck on a hot
// key or row must not leave the next arrivals waiting for a client instead (one run of
// atomic updates at 200/s over 10,000 zipf:1 accounts, --clients 4,16: p99 3.31 ms with
// 4 clients, 2.42 ms with 16).
const leastClients = 16

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

// costCells are the cells that price one kind of option: the locks' acquire-hold-
// release cycles, or the lock-free ways' whole updates (`run --workload update`).
type costCells struct {
	update         bool
	dir, noun, why string
	overhead       time.Duration
	overheadFrom   string
	strategies     []string
}

func (p *Plan) benchSteps(w *workload.Workload, in *adr.Inputs, out string) {
	p.costSteps(w, in, costCells{dir: filepath.Join(out, "bench"), noun: "strategy",
		why: "the cost at the rate and the capacity", overhead: measuredCellOverhead, overheadFrom: measuredCellFrom,
		strategies: planStrategies(w)})
}

// updateStep prices the lock-free ways a correctness ADR weighs: one whole update, at
// the workload's load, as the ADR prices them.
func (p *Plan) updateStep(w *workload.Workload, in *adr.Inputs, out string) {
	if w.Purpose != workload.Correctness {
		return
	}
	p.costSteps(w, in, costCells{update: true, dir: filepath.Join(out, "bench-update"), noun: "lock-free way",
		why: "the lock-free ways' cost: one whole correct update", overhead: measuredUpdateCellOverhead,
		overheadFrom: measuredUpdateCellFrom, strategies: adr.LockFreeStrategies})
}

// costSteps times the strategies of kind whose cells the given results lack, at the
// workload's load (copies of its keys when its rate is too slow), and checks the
// key-copies model on every strategy priced through it.
func (p *Plan) costSteps(w *workload.Workload, in *adr.Inputs, kind costCells) {
	if kind.update {
		noHold := *w // an update holds no lock: its cells are sized for requests of no hold
		noHold.HoldD, noHold.Occupancy = 0, workload.Occupancy{}
		w = &noHold
	}
	copies := benchCopies(w)
	var missing, unchecked []string
	for _, s := range kind.strategies {
		cell, checked := benchCellAt(w, in, s, kind.update)
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
		p.benchStep(w, kind, missing, copies, kind.dir, "")
	}
	if copies > 1 {
		p.benchStep(w, kind, append(missing, unchecked...), 2*copies, kind.dir+"-check",
			fmt.Sprintf("the %s model's check: the same cells at %d copies, whose p99 must agree with %d copies'",
				adr.KeyCopiesModel, 2*copies, copies))
	}
}

// benchStep times strategies in one open-loop cell each at copies copies of the
// workload's keys; check, when not empty, says the step checks the key-copies model.
func (p *Plan) benchStep(w *workload.Workload, kind costCells, strategies []string, copies int, dir, check string) {
	if len(strategies) == 0 {
		return
	}
	warmup, dur, clients := benchWarmup(w), benchDuration(w, copies), openClients(w, copies)
	rate := adr.Plain(w.LockRate * float64(copies))
	keys := fmt.Sprintf("%d %s", w.Keys.Count, w.Keys.Distribution)
	what := fmt.Sprintf("one open-loop cell per %s (%s) at %s/s (poisson arrivals), %d clients, keys %s",
		kind.noun, strings.Join(strategies, ", "), rate, clients, keys)
	if !kind.update {
		what += fmt.Sprintf(", hold %v, TTL %v", w.HoldD, w.TTLD)
	}
	why := fmt.Sprintf("%s within %s (%v measured per cell: 10 samples past the percentile)", kind.why, w.SLO, dur)
	if copies > 1 {
		what += fmt.Sprintf(", in %d copies (%s model: each key asked at the workload's own %s/s)", copies,
			adr.KeyCopiesModel, adr.Plain(w.LockRate))
		why = fmt.Sprintf("%s at the workload's load within %s, from %d copies of its keys: %v measured per cell "+
			"for 10 samples past the percentile, where the workload's own rate would take %v", kind.why, w.SLO, copies,
			dur, benchDuration(w, 1))
	}
	if check != "" {
		why = check
	}
	args := []string{"run"}
	if kind.update {
		args = append(args, "--workload", "update")
	}
	args = append(append(args, "--strategies", strings.Join(strategies, ","), "--clients", strconv.Itoa(clients)),
		keyArgs(w, copies)...)
	if !kind.update {
		args = append(args, "--hold", w.HoldD.String(), "--ttl", w.TTLD.String())
		if w.HoldDist != "" {
			args = append(args, "--hold-dist", w.HoldDist)
		}
	}
	args = append(args, "--load", "open", "--rate", rate, "--arrival", "poisson", "--duration", dur.String(),
		"--warmup", warmup.String(), "--seed", "1")
	per := warmup + dur + benchDrain(w) + kind.overhead
	rounds, from := len(strategies), fmt.Sprintf("%d cells", len(strategies))
	if beside := besideOf(w, kind, len(strategies)); beside > 1 {
		args = append(args, "--beside", strconv.Itoa(beside))
		rounds = (len(strategies) + beside - 1) / beside
		what += fmt.Sprintf(", %d strategies at once (their waits are seconds, which another's load moves by "+
			"milliseconds)", beside)
		from = fmt.Sprintf("%d rounds of up to %d cells at once", rounds, beside)
	}
	p.add(Step{
		What:     what,
		Why:      why,
		measure:  args,
		Estimate: time.Duration(rounds) * per,
		EstimateFrom: fmt.Sprintf("%s x %v (the warm-up, the measured part and as long as the warm-up again to "+
			"serve the requests due in it): %s", from, per, kind.overheadFrom),
		Out: dir,
	})
}

// besideAtMost is how many lock strategies a cost step measures at once where their
// holds allow it (sweep.BesideHold): each runs its own servers on the 2 cores.
const besideAtMost = 4

// besideOf is how many of n strategies a cost step measures at once: 1 unless they
// hold locks of sweep.BesideHold or longer.
func besideOf(w *workload.Workload, kind costCells, n int) int {
	if kind.update || w.HoldD < sweep.BesideHold || n < 2 {
		return 1
	}
	return min(n, besideAtMost)
}

// benchCellAt names a given open-loop cell of strategy s (an update cell when update)
// that stands for the workload's load (its own, or copies of it: adr.CopiesOf);
// checked says no check is needed (one copy) or a cell at another copy count is there.
func benchCellAt(w *workload.Workload, in *adr.Inputs, s string, update bool) (cell string, checked bool) {
	copiesOf := adr.CopiesOf
	if update {
		copiesOf = adr.UpdateCopiesOf
	}
	counts := map[int]bool{}
	for _, r := range in.Runs {
		for _, c := range r.Cells {
			if c.Strategy != s || c.IsUpdate() != update {
				continue
			}
			if n := copiesOf(w, stats.ConditionOf(&c)); n > 0 {
				counts[n] = true
				if cell == "" || n == 1 {
					cell = c.Name
				}
			}
		}
	}
	return cell, counts[1] || len(counts) > 1
}
