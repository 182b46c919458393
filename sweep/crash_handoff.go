package sweep

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/severed"
	"github.com/lockbench/lockbench/updates"
)

// checkCrashHandoffs refuses crash hand-offs on deployments whose clients learn server
// addresses from the servers (a Sentinel's master, a cluster's slots): a holder there
// would reach the servers past the proxies its death cuts.
func (cfg Config) checkCrashHandoffs(cells []Cell) error {
	if cfg.CrashHandoffs == 0 {
		return nil
	}
	for _, c := range cells {
		if c.Workload == WorkloadUpdate {
			continue
		}
		spec, err := updates.TopologyFor(c.Strategy)
		if err != nil {
			return err
		}
		spec = spec.WithDefaults(linked.Catalog())
		if spec.Sentinels > 0 || spec.Kind == "cluster" {
			return fmt.Errorf("crash-handoffs: strategy %s runs on %s, whose clients learn addresses from the servers: a "+
				"dead holder's connections cannot all be cut", c.Strategy, spec.Kind)
		}
	}
	return nil
}

// crashBound caps one crash hand-off: a lease outlives its dead holder by at most its
// TTL, a session by its timeout; past three TTLs and half a minute it is an error.
func crashBound(cell Cell) time.Duration { return 3*cell.TTL + 30*time.Second }

// crashHandoffs adds the cell's crash hand-offs to out: each trial a holder on its own
// connections, through proxies its death cuts, against a client of l.
func (r *Runner) crashHandoffs(ctx context.Context, index int, cell Cell, topo topologies.Topology, l locks.Locker,
	load bench.Load, out *resultsdir.Cell) error {
	newHolder := func(ctx context.Context) (bench.Holder, error) {
		cut, sever, err := severed.Wrap(topo)
		if err != nil {
			return bench.Holder{}, err
		}
		hl, err := locks.ForTopology(ctx, cell.Strategy, cut, locks.Options{Options: redisconn.Options{PoolSize: 1}})
		if err != nil {
			sever()
			return bench.Holder{}, err
		}
		return bench.Holder{Locker: hl, Kill: sever}, nil
	}
	start := time.Now()
	h, err := bench.ProbeCrashHandoffs(ctx, l, load, newHolder, r.Config.CrashHandoffs, crashBound(cell))
	if err != nil {
		return fmt.Errorf("crash hand-offs: %w", err)
	}
	rel := filepath.Join(resultsdir.HistogramsDir, fmt.Sprintf("%03d-%s.hlog", index, resultsdir.MetricCrashHandoff))
	if err := resultsdir.WriteHistogram(r.Out, rel, h, start, time.Now()); err != nil {
		return err
	}
	out.Latency[resultsdir.MetricCrashHandoff] = resultsdir.Summarize(h)
	out.Histograms[resultsdir.MetricCrashHandoff] = rel
	return nil
}
