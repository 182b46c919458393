package adr

import (
	"fmt"
	"sync"
	"time"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/contention"
	"github.com/lockbench/lockbench/contention/floor"
	"github.com/lockbench/lockbench/stats"
)

// QueueFloor is the workload's queueing floor against its latency budget: the wait for
// a held key that no lock can beat (contention/floor: M/G/1 per key, FIFO, Poisson
// arrivals, a grant that costs nothing and hands over at once), at the workload's
// rate, keys and (constant) hold.
type QueueFloor struct {
	Percentile stats.Percentile
	Wait       floor.Wait // the floor's wait at the budget's percentile
	Exceed     float64    // the share of requests that wait longer than the budget
	Allowed    float64    // the share the percentile lets over it: 1 - q
	Method     string
	// LongestHold is the longest hold (within 1%) at which the floor keeps the budget,
	// the rest as the workload has it; set only when the floor misses the budget.
	LongestHold time.Duration
}

// Meets says a perfect lock could keep the budget.
func (f *QueueFloor) Meets() bool { return f.Exceed <= f.Allowed }

// Misses says a floor was computed and no lock can keep the budget; false for none.
func (f *QueueFloor) Misses() bool { return f != nil && !f.Meets() }

// floorSeed fixes the simulation: the same workload gives the same record.
const floorSeed = 1

// floorRequests sizes the floor's simulation: at 200,000 requests a share of 4% over
// the budget has a standard error near 0.05 points, far inside what a p99 allows (1%);
// each simulation of the hold search uses a fifth of that.
const (
	floorRequests  = 200_000
	searchRequests = floorRequests / 5
)

// floors keeps each workload's floor: a record is rendered more than once per run (the
// plan, then the record), and the simulation is the slowest part of either.
var floors = struct {
	sync.Mutex
	of map[floorInputs]*QueueFloor
}{of: map[floorInputs]*QueueFloor{}}

// floorInputs are what a floor depends on.
type floorInputs struct {
	rate       float64
	keys       workload.Keys
	hold       time.Duration
	holdDist   string
	percentile stats.Percentile
	budget     time.Duration
}

// queueFloorOf is the workload's floor, computed once; nil when its budget is on the
// maximum.
func queueFloorOf(w *workload.Workload) (*QueueFloor, error) {
	in := floorInputs{w.LockRate, w.Keys, w.HoldD, w.HoldDist, w.SLO.Percentile, w.SLO.Budget}
	floors.Lock()
	defer floors.Unlock()
	if f, ok := floors.of[in]; ok {
		return f, nil
	}
	f, err := computeFloor(w)
	if err == nil {
		floors.of[in] = f
	}
	return f, err
}

func computeFloor(w *workload.Workload) (*QueueFloor, error) {
	q, ok := w.SLO.Percentile.Quantile() // none for max, which no queue model bounds
	if !ok {
		return nil, nil
	}
	keys, err := floorKeys(w.Keys)
	if err != nil {
		return nil, err
	}
	exceed := func(hold time.Duration, requests int) (*floor.Floor, error) {
		h, err := w.HoldOf(hold)
		if err != nil {
			return nil, err
		}
		return floor.Compute(w.LockRate, keys, h, floor.Options{Sim: floor.SimOptions{Requests: requests, Seed: floorSeed}})
	}
	f, err := exceed(w.HoldD, floorRequests)
	if err != nil {
		return nil, err
	}
	qf := &QueueFloor{Percentile: w.SLO.Percentile, Wait: f.Percentile(q), Exceed: f.Exceed(w.SLO.Budget),
		Allowed: 1 - q, Method: f.Method}
	if qf.Meets() {
		return qf, nil
	}
	// The floor's excess grows with the hold: bisect for the longest that keeps it.
	lo, hi := time.Duration(0), w.HoldD
	for hi-lo > w.HoldD/100 {
		mid := (lo + hi) / 2
		g, err := exceed(mid, searchRequests)
		if err != nil {
			return nil, err
		}
		if g.Exceed(w.SLO.Budget) <= qf.Allowed {
			lo = mid
		} else {
			hi = mid
		}
	}
	qf.LongestHold = lo
	return qf, nil
}

// floorKeys are the workload's keys as the floor reads them.
func floorKeys(k workload.Keys) (*contention.Keys, error) {
	if k.Distribution == workload.Zipf {
		return contention.ZipfKeys(k.Count, k.ZipfExponent)
	}
	return contention.UniformKeys(k.Count)
}

// LocksBeyondFloor says why no lock can meet the workload's latency budget (its
// queueing floor alone misses it); "" when one might, or the floor cannot say.
func LocksBeyondFloor(w *workload.Workload) string {
	f, err := queueFloorOf(w)
	if err != nil || !f.Misses() {
		return ""
	}
	return f.floorWhy(w)
}

// floorWhy says, for a lock option, that the floor alone breaks the latency budget.
func (f *QueueFloor) floorWhy(w *workload.Workload) string {
	return fmt.Sprintf("no lock can meet %s within %s at %s/s: at the queueing floor (a perfect lock: M/G/1 per key, "+
		"FIFO, no lock overhead) %s of requests wait longer, over the %s a %s allows (the floor's %s: %s)",
		f.Percentile, stats.FormatDuration(w.SLO.Budget), stats.FormatRate(w.LockRate), shareText(f.Exceed),
		percent(f.Allowed), f.Percentile, f.Percentile, f.Wait)
}

// whatWould says what would bring the floor within the budget.
func (f *QueueFloor) whatWould(w *workload.Workload) string {
	hold := "no hold above 0 does"
	if f.LongestHold > 0 {
		hold = fmt.Sprintf("holds of at most %s (the workload's: %s)", stats.FormatDuration(f.LongestHold),
			stats.FormatDuration(w.HoldD))
	}
	return fmt.Sprintf("%s; the lock spread over more keys (its busiest key is held %s of the time); or a way "+
		"with no lock (a store-side guard)", hold, percent(w.Occupancy.Busiest))
}

// shareText is a share of requests: percent's, but a share above 0 that it would round
// to 0% says so.
func shareText(p float64) string {
	if p > 0 && p < 0.0005 {
		return "under 0.1%"
	}
	return percent(p)
}
