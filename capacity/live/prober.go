// Package live runs capacity probes on real servers: one open-loop cell per probe,
// recorded in a results folder, with the CPU of the generator and of every server
// read from /proc over the probe.
package live

import (
	"context"
	"os"
	"runtime"
	"time"

	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/netem"
	"github.com/lockbench/lockbench/sweep"
)

// ClientName is the generator's own process in CPU shares.
const ClientName = "lockbench"

// Condition is the workload a strategy's rate is searched under.
type Condition struct {
	Clients, Keys int
	Hold, TTL     time.Duration
	Arrival       string
}

// Prober probes one strategy under one condition through a running session.
type Prober struct {
	Session   *sweep.Session
	Strategy  string
	Condition Condition
	Budget    capacity.Budget
	// Next is the cell index of the next probe, shared by every prober of a run so
	// that key prefixes, seeds and histogram files never collide.
	Next *int

	pids map[string]int
}

// Servers is how many server processes the strategy runs on.
func (p *Prober) Servers() int { return len(p.Session.Topology().Nodes()) }

// Probe measures one open-loop cell at rate.
func (p *Prober) Probe(ctx context.Context, rate float64, repeat int, plan capacity.Plan) (capacity.Probe, error) {
	if p.pids == nil {
		p.pids = serverPIDs(ctx, p.Session.Topology())
		p.pids[ClientName] = os.Getpid()
	}
	none, _ := netem.ParseProfile("none")
	cell := sweep.Cell{
		Strategy: p.Strategy, Clients: p.Condition.Clients, Keys: p.Condition.Keys, Hold: p.Condition.Hold,
		TTL:     p.Condition.TTL,
		Network: none, Load: "open", Rate: rate, Arrival: p.Condition.Arrival, Workload: sweep.WorkloadLock, Repeat: repeat,
	}
	index := *p.Next
	*p.Next++
	meter := capacity.NewCPUMeter(p.pids)
	measured, err := p.Session.Measure(ctx, index, cell, plan.Warmup, plan.Duration)
	if err != nil {
		return capacity.Probe{}, err
	}
	shares := meter.Shares()
	var errs int64
	for _, n := range measured.Errors {
		errs += n
	}
	lat := measured.Latency[p.Budget.Metric]
	out := capacity.Probe{
		Cell: measured.Name, Repeat: repeat, Offered: rate, Achieved: measured.Load.AchievedRate,
		Samples: lat.Count, Latency: p.Budget.Percentile.Of(lat), Sent: measured.Attempts,
		Errors: errs, Dropped: measured.Load.Dropped, Elapsed: measured.Elapsed.D(), Poisson: cell.Arrival == "poisson",
		ClientCPU: shares[ClientName], ClientCores: float64(min(runtime.GOMAXPROCS(0), runtime.NumCPU())),
		ServerCPU: map[string]float64{},
	}
	out.MachineCPU, out.MachineCores = shares[capacity.MachineName], float64(runtime.NumCPU())
	for name, share := range shares {
		if name != ClientName && name != capacity.MachineName {
			out.ServerCPU[name] = share
		}
	}
	return out, nil
}
