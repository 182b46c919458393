package capacity

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/lockbench/lockbench/stats"
)

// Plan is how long one probe runs: a warm-up it discards, then the measured part.
type Plan struct {
	Warmup   time.Duration
	Duration time.Duration
}

// Probe is what one open-loop probe at an offered rate measured.
type Probe struct {
	Cell     string  // name of the results cell that holds it, when recorded
	Repeat   int     // 1 for the first probe at a rate, 2 for its repeat
	Offered  float64 // requests per second asked for
	Achieved float64 // completed cycles per second
	Samples  int64   // latencies of the budget's metric recorded in the measured part
	Latency  time.Duration
	Sent     int64 // requests dispatched in the measured part
	Errors   int64
	Dropped  int64
	Elapsed  time.Duration
	// Poisson says arrivals were drawn at random: their count in a probe varies by
	// its square root, which Judge allows for.
	Poisson bool
	// CPU during the probe, in cores busy: the generator's own process, and each
	// server process by node name. ClientCores is what the generator may use.
	ClientCPU   float64
	ClientCores float64
	ServerCPU   map[string]float64
	// MachineCPU is every process's, ours or not, out of MachineCores.
	MachineCPU   float64
	MachineCores float64
}

// Prober runs one probe at an offered rate.
type Prober interface {
	Probe(ctx context.Context, rate float64, repeat int, plan Plan) (Probe, error)
}

// Verdict judges one probe against a budget.
type Verdict struct {
	Kept bool
	Why  string // why it broke; empty when kept
	// GeneratorBound: the generator did not deliver the rate and its own CPU was
	// saturated, so the servers were not what stopped it.
	GeneratorBound bool
}

// minAchieved is the least completed rate that counts as delivering the offered one.
func (p Probe) minAchieved() float64 { return MinAchieved(p.Offered, p.Elapsed, p.Poisson) }

// MinAchieved is the least completed rate that counts as delivering offered over
// elapsed: MinDelivered of it, or, for Poisson arrivals when it is lower, three
// standard deviations below the expected count (a 1,100-sample probe's count varies
// by 3%, so a short probe would otherwise fail the check by chance about one time in
// twenty).
func MinAchieved(offered float64, elapsed time.Duration, poisson bool) float64 {
	floor := MinDelivered * offered
	if secs := elapsed.Seconds(); poisson && secs > 0 {
		n := offered * secs
		floor = min(floor, (n-3*math.Sqrt(n))/secs)
	}
	return floor
}

// ClientSaturated says whether the generator's process used nearly all its cores.
func (p Probe) ClientSaturated() bool {
	return p.ClientCores > 0 && p.ClientCPU >= SaturatedShare*p.ClientCores
}

// Judge says whether p kept the budget: enough samples, no more than MaxFaultShare of
// errors or drops, at least MinDelivered of the offered rate, and the percentile
// within the limit. A probe that fails several reasons names the first.
func Judge(p Probe, b Budget, minSamples int64) Verdict {
	requests := float64(max(p.Sent, p.Samples, 1))
	undelivered := p.Achieved < p.minAchieved()
	switch {
	case undelivered && p.ClientSaturated():
		return Verdict{Why: fmt.Sprintf("generator delivered only %s/s (client CPU %.0f%% of %g cores)",
			stats.FormatRate(p.Achieved), 100*p.ClientCPU/p.ClientCores, p.ClientCores), GeneratorBound: true}
	case float64(p.Errors) > MaxFaultShare*requests:
		return Verdict{Why: fmt.Sprintf("errors %d (%.2f%% of requests)", p.Errors, 100*float64(p.Errors)/requests)}
	case float64(p.Dropped) > MaxFaultShare*requests:
		return Verdict{Why: fmt.Sprintf("dropped %d (%.2f%% of requests)", p.Dropped, 100*float64(p.Dropped)/requests)}
	case undelivered:
		return Verdict{Why: fmt.Sprintf("achieved only %s/s", stats.FormatRate(p.Achieved))}
	case p.Samples < minSamples:
		return Verdict{Why: fmt.Sprintf("only %d samples, %d needed for %s", p.Samples, minSamples, b.Percentile)}
	case p.Latency > b.Limit:
		return Verdict{Why: fmt.Sprintf("%s %s", b.Percentile, stats.FormatDuration(p.Latency))}
	}
	return Verdict{Kept: true}
}
