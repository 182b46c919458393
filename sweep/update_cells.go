package sweep

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/updates"
)

// The update workload's lock retry policy: a refused client waits 1 ms, doubling to
// 32 ms, unless the config sets its own first delay (retrying at once livelocks etcd
// with 64 clients on one key).
const (
	updateRetryDelay    = time.Millisecond
	updateMaxRetryDelay = 32 * time.Millisecond
)

// measureUpdates runs one update cell: its way over the strategy's deployment and the
// database holding the rows, then audits the rows.
func (r *Runner) measureUpdates(ctx context.Context, index int, cell Cell, topo topologies.Topology) (resultsdir.Cell,
	error) {
	setup := updates.Setup{
		Strategy: cell.Strategy, Guard: cell.Guard, Topology: topo,
		Clients: cell.Clients, Rows: cell.Keys, TTL: cell.TTL,
		Prefix:     r.keyPrefix(index),
		RetryDelay: updateRetryDelay, MaxRetryDelay: updateMaxRetryDelay,
	}
	if d := r.Config.RetryDelay.D(); d > 0 {
		setup.RetryDelay, setup.MaxRetryDelay = d, max(d, updateMaxRetryDelay)
	}
	if updates.NeedsPostgres(cell.Strategy) {
		dsn, err := r.postgresFor(ctx, topo)
		if err != nil {
			return resultsdir.Cell{}, err
		}
		setup.PostgresDSN = dsn
	}
	way, err := updates.New(ctx, setup)
	if err != nil {
		return resultsdir.Cell{}, err
	}
	defer way.Close()
	run := r.runUpdatesClosed
	if cell.Load == "open" {
		run = r.runUpdatesOpen
	}
	res, start, err := run(ctx, index, cell, way)
	if err != nil {
		return resultsdir.Cell{}, err
	}
	if ctx.Err() != nil {
		return resultsdir.Cell{}, ctx.Err()
	}
	audit, err := way.Audit(context.WithoutCancel(ctx))
	if err != nil {
		return resultsdir.Cell{}, fmt.Errorf("audit: %w", err)
	}
	return r.recordUpdates(index, cell, res, audit, start)
}

// runUpdatesClosed runs a closed-loop update cell, each client on its row: a warm-up,
// then the measured part, which starts at start.
func (r *Runner) runUpdatesClosed(ctx context.Context, _ int, cell Cell, way updates.Way) (res bench.UpdateResult,
	start time.Time, err error) {
	run := func(d time.Duration, intervals bench.Intervals) (bench.UpdateResult, error) {
		runCtx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		load := bench.UpdateLoad{Clients: cell.Clients, Rows: cell.Keys, Intervals: intervals}
		return bench.RunUpdates(runCtx, way, load, func() bool { return true })
	}
	if r.Config.Warmup > 0 {
		if _, err := run(r.Config.Warmup.D(), bench.Intervals{}); err != nil {
			return res, start, fmt.Errorf("warm-up: %w", err)
		}
	}
	start = time.Now()
	res, err = run(r.Config.Duration.D(), r.intervals())
	return res, start, err
}

// runUpdatesOpen runs an open-loop update cell: arrivals at the cell's rate, each for
// an account drawn by its key-dist (a client's own row without one), its warm-up served
// unrecorded and its due requests drained, as a lock cell's open loop.
func (r *Runner) runUpdatesOpen(ctx context.Context, index int, cell Cell, way updates.Way) (res bench.UpdateResult,
	start time.Time, err error) {
	load := bench.UpdateLoad{Clients: cell.Clients, Rows: cell.Keys, Intervals: r.intervals(),
		Seed: r.Config.Seed + uint64(index)}
	if cell.KeyDist != "" {
		if load.Accounts, _, err = cell.draws(); err != nil {
			return res, start, err
		}
	}
	open := bench.Open{Rate: cell.Rate, Arrival: cell.Arrival, Seed: r.Config.Seed + uint64(index),
		Discard: r.Config.Warmup.D(), Drain: r.Config.Duration.D(), For: r.Config.Duration.D()}
	start = time.Now().Add(open.Discard)
	res, err = bench.RunUpdatesOpen(ctx, way, load, open)
	return res, start, err
}

// postgresFor is the database of the rows: the strategy's own server when it is
// PostgreSQL (lock and data in one place), else one started for the run.
func (r *Runner) postgresFor(ctx context.Context, topo topologies.Topology) (string, error) {
	if server, ok := topo.(interface{ DSN() string }); ok {
		return server.DSN(), nil
	}
	if r.data == nil {
		provider, err := topologies.DefaultProvider(topologies.Postgres)
		if err != nil {
			return "", err
		}
		startCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		if r.data, err = provider.Start(startCtx, backend.Spec{Kind: topologies.Postgres}); err != nil {
			return "", fmt.Errorf("start the PostgreSQL holding the rows: %w", err)
		}
		r.Run.Environment.Topologies["rows"] = describe(r.data)
	}
	server, ok := r.data.(interface{ DSN() string })
	if !ok {
		return "", fmt.Errorf("PostgreSQL from provider %s has no DSN", r.data.Provider())
	}
	return server.DSN(), nil
}

func (r *Runner) closeData() {
	if r.data != nil {
		r.data.Close()
		r.data = nil
	}
}

// recordUpdates turns an update measurement and its audit into a results cell.
func (r *Runner) recordUpdates(index int, cell Cell, res bench.UpdateResult, audit updates.Audit,
	start time.Time) (resultsdir.Cell, error) {
	out := resultsdir.Cell{
		Name: cell.Name(), Repeat: cell.Repeat, Strategy: cell.Strategy, Clients: cell.Clients, Keys: cell.Keys,
		Hold: resultsdir.Duration(cell.Hold), TTL: resultsdir.Duration(cell.TTL),
		Network:  resultsdir.Network{Profile: cell.Network.Name},
		Load:     resultsdir.LoadMode{Mode: cell.Load},
		KeyDist:  cell.KeyDist,
		Warmup:   resultsdir.Duration(r.Config.Warmup),
		Duration: resultsdir.Duration(r.Config.Duration),
		Elapsed:  resultsdir.Duration(res.Elapsed),
		Workload: WorkloadUpdate, Guard: cell.Guard,
		Attempts: res.Applied + res.Refused + res.Retries, Granted: res.Applied, Refused: res.Retries,
		CyclesPerSecond: res.UpdatesPerSecond(),
		Latency:         map[string]resultsdir.Summary{},
		Histograms:      map[string]string{},
		Update: &resultsdir.UpdateStats{
			UpdatesPerSecond: res.UpdatesPerSecond(), Applied: res.Applied, Refused: res.Refused,
			Retries: res.Retries, RetriesPerUpdate: res.RetriesPerUpdate(),
			Intended: audit.Intended, Failed: audit.Failed, LostUpdates: audit.LostUpdates,
			LostAmount: audit.LostAmount, Duplicates: audit.Duplicates,
		},
	}
	if cell.Load == "open" {
		out.Load.Arrival, out.Load.TargetRate, out.Load.AchievedRate = cell.Arrival, cell.Rate, res.UpdatesPerSecond()
	}
	if len(res.Errors) > 0 {
		out.Errors = res.Errors
	}
	if cell.Guard != "" {
		if source, err := updates.FenceOf(cell.Strategy); err == nil && updates.GuardNeedsFence(cell.Guard) {
			out.Update.Fence = string(source)
		}
	}
	pieces := make([]piece, len(res.Intervals))
	for i, iv := range res.Intervals {
		pieces[i] = piece{iv.Elapsed, iv.Applied, map[string]*hdrhistogram.Histogram{resultsdir.MetricUpdate: iv.Update}}
	}
	out.Intervals = summarizePieces(pieces)
	rel := filepath.Join(resultsdir.HistogramsDir, fmt.Sprintf("%03d-%s.hlog", index, resultsdir.MetricUpdate))
	if err := resultsdir.WriteHistogramLog(r.Out, rel,
		spans(resultsdir.MetricUpdate, res.Update, pieces, start, res.Elapsed)); err != nil {
		return out, err
	}
	out.Latency[resultsdir.MetricUpdate] = resultsdir.Summarize(res.Update)
	out.Histograms[resultsdir.MetricUpdate] = rel
	return out, nil
}
