package sweep

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/netem"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/updates"
)

// Observer hears about progress; the CLI draws it.
type Observer interface {
	Started(total int)
	CellStarted(index int, c Cell)
	CellDone(index int, c resultsdir.Cell)
}

// Runner measures cells into a results folder.
type Runner struct {
	Config   Config
	Out      string // an existing, empty folder
	Observer Observer
	Run      *resultsdir.Run // Environment set by the caller; cells are added in the matrix's order
	// Worker, when set, runs only its share of every cell (`run --worker I/N`).
	Worker *Worker
	// Target, when set, is the running deployment every cell measures: it is neither
	// started nor closed here (workers sharing servers; tests).
	Target topologies.Topology

	kept    []topologies.Topology // a worker's topologies, closed once every worker is done
	unclean []error               // keys left on servers not ours: their clean-up failed
	lastEnd time.Time             // a worker's last agreed end of a measured part

	data topologies.Topology // the PostgreSQL holding the update workload's rows, once started

	mu     sync.Mutex // Run, unclean and Observer, which lanes beside one another share
	beside int        // lanes measured at once: 0 when one at a time
	// beforeCell, when set, is called as a lane starts measuring cell index, outside
	// every lock (tests meet lanes there).
	beforeCell func(index int)
}

// Execute measures every cell in order, but those Run already holds (a resumed run's
// finished cells, by name and repeat), each at its own index so that its key prefix,
// arrival seed and histogram files are those of an uninterrupted run. After each cell
// the results folder is rewritten (atomically), so an interrupted run keeps every
// finished cell; on return Run.Complete says whether all were measured.
func (r *Runner) Execute(ctx context.Context, cells []Cell) (err error) {
	r.Observer.Started(len(cells))
	if err := r.checkWorker(cells); err != nil {
		return err
	}
	if r.Worker != nil {
		tag := r.Worker.tag(r.Config.RunID)
		r.Run.Worker = &tag
	}
	if err := resultsdir.WriteRun(r.Out, r.Run); err != nil {
		return err
	}
	// Registered first, so it runs last: after every topology closed and cleaned up.
	defer func() { err = errors.Join(err, r.cleanupError()) }()
	defer r.closeKept(ctx)
	defer r.closeData()
	if err := r.runLanes(ctx, cells); err != nil {
		return err
	}
	r.Run.Complete = ctx.Err() == nil && len(r.Run.Cells)+len(r.Run.Skipped) == len(cells)
	r.Run.Finished = time.Now().UTC()
	return resultsdir.WriteRun(r.Out, r.Run)
}

func topologyMismatch(topo topologies.Topology, cell Cell) bool {
	spec, err := cellSpec(cell)
	return err != nil || topo == nil || topo.Spec().Kind != spec.Kind || topo.Spec().AppendFsync != spec.AppendFsync
}

// cellSpec is the deployment a cell runs on: its strategy's, under the cell's policy.
func cellSpec(cell Cell) (backend.Spec, error) {
	spec, err := updates.TopologyFor(cell.Strategy)
	if cell.AppendFsync != "" {
		spec.AppendFsync = cell.AppendFsync
	}
	return spec, err
}

func (r *Runner) startTopology(ctx context.Context, cell Cell) (topologies.Topology, error) {
	spec, err := cellSpec(cell)
	if err != nil {
		return nil, err
	}
	name := cell.Strategy
	if cell.AppendFsync != "" {
		name += "/appendfsync=" + cell.AppendFsync // the environment lists each deployment apart
	}
	return r.start(ctx, name, spec)
}

// start runs one deployment with the configured provider (or the kind's default);
// strategy names it in the environment.
func (r *Runner) start(ctx context.Context, strategy string, spec backend.Spec) (topologies.Topology, error) {
	var err error
	var provider topologies.Provider
	if r.Config.Provider != "" {
		provider, err = topologies.ProviderNamed(r.Config.Provider)
	} else {
		provider, err = topologies.DefaultProvider(spec.Kind)
	}
	if err != nil {
		return nil, err
	}
	startCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	topo, err := provider.Start(startCtx, r.Config.flavoured(spec))
	if err != nil {
		return nil, fmt.Errorf("start %s topology for %s: %w", spec.Kind, strategy, err)
	}
	server := runningServer(ctx, topo)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Run.Environment.Topologies[strategy] = describe(topo)
	if server != "" {
		r.Run.Environment.Topologies[strategy] += " on " + server
	}
	if ext, ok := topo.(interface {
		Servers() []resultsdir.ExternalServer
	}); ok {
		if r.Run.Environment.External == nil {
			r.Run.Environment.External = map[string][]resultsdir.ExternalServer{}
		}
		r.Run.Environment.External[strategy] = ext.Servers()
	}
	return topo, nil
}

// describe says in a few words what a strategy ran on.
func describe(topo topologies.Topology) string {
	return fmt.Sprintf("%s via %s: %d master(s), %d replica(s), %d sentinel(s)",
		topo.Spec().Kind, topo.Provider(), len(topo.Masters()), len(topo.Replicas()), len(topo.Sentinels()))
}

// measure runs one cell's warm-up and measured part and records them.
func (r *Runner) measure(ctx context.Context, index int, cell Cell, topo topologies.Topology,
	network *netem.Network) (resultsdir.Cell, error) {
	if cell.Workload == WorkloadUpdate {
		return r.measureUpdates(ctx, index, cell, topo)
	}
	first, clients := r.share(cell)
	opts := locks.Options{Options: redisconn.Options{PoolSize: clients}}
	if network != nil {
		opts.Dialer = network.Dialer()
	}
	l, err := locks.ForTopology(ctx, cell.Strategy, topo, opts)
	if err != nil {
		return resultsdir.Cell{}, err
	}
	defer l.Close()
	load := bench.Load{
		Clients: clients, Keys: cell.Keys, TTL: cell.TTL, Hold: cell.Hold,
		RetryDelay: r.Config.RetryDelay.D(), KeyPrefix: r.keyPrefix(index),
		FirstClient: first, AllClients: cell.Clients, Wait: r.Config.WaitMode(),
	}
	if load.Spread, err = cell.spread(r.Config.Seed + uint64(index)); err != nil {
		return resultsdir.Cell{}, err
	}
	r.noteWaiting(cell.Strategy, bench.Waiting(l, load))
	open := bench.Open{Rate: cell.Rate * float64(clients) / float64(cell.Clients), Arrival: cell.Arrival,
		Seed: r.Config.Seed + uint64(index)}
	if r.Worker != nil { // each worker's arrivals of their own, not copies of one another's
		open.Seed += uint64(r.Worker.Index) << 32
	}
	// Connections are warmed once, on a deadline of their own: a phase's deadline is its
	// measured time, and 1,024 clients' dials would eat a short warm-up whole.
	warmCtx, cancel := context.WithTimeout(ctx, connectBudget)
	err = locks.Warm(warmCtx, l, locks.WarmUp{Clients: clients, TTL: cell.TTL})
	cancel()
	if err != nil {
		return resultsdir.Cell{}, fmt.Errorf("open connections: %w", err)
	}
	load.NoWarm = true
	// A library's own wait hides its attempts: their cost is timed apart, before the
	// load (and before a worker's agreed start), to stand beside the wait.
	var probe *hdrhistogram.Histogram
	var probeErr error
	if bench.NeedsAttemptProbe(l, load) {
		probe, probeErr = bench.ProbeAttempts(ctx, l, load)
	}
	start, err := r.agreeStart(ctx, index, cell, topo)
	if !start.scheduled.IsZero() {
		r.lastEnd = start.scheduled.Add(r.Config.Duration.D())
	}
	if err != nil {
		return resultsdir.Cell{}, err
	}
	if !start.scheduled.IsZero() {
		// The warm-up ends on the agreed start, so that every worker's measured part begins together.
		warmup := load
		warmup.KeyPrefix += "warmup:"
		if !sleepUntil(ctx, start.scheduled.Add(-r.Config.Warmup.D())) {
			return resultsdir.Cell{}, ctx.Err()
		}
		if r.Config.Warmup > 0 {
			// It stops a little early: its last cycles return inside the margin, and the
			// measured part still begins on the agreed time, not when they did.
			until := start.scheduled.Add(-warmupMargin(r.Config.Warmup.D()))
			if _, err := r.runLoad(ctx, l, warmup, open, cell, time.Until(until)); err != nil {
				return resultsdir.Cell{}, fmt.Errorf("warm-up: %w", err)
			}
		}
		if !sleepUntil(ctx, start.scheduled) {
			return resultsdir.Cell{}, ctx.Err()
		}
	} else if r.Config.Warmup > 0 && cell.Load == "open" {
		// One run whose first part is not recorded: the warm-up's requests fill the
		// measured keys' queues, so that the measuring starts in the load's steady state.
		open.Discard = r.Config.Warmup.D()
	} else if r.Config.Warmup > 0 {
		// Keys of its own: a lock the warm-up's end left behind must not block the
		// measured part for a TTL.
		warmup := load
		warmup.KeyPrefix += "warmup:"
		if _, err := r.runLoad(ctx, l, warmup, open, cell, r.Config.Warmup.D()); err != nil {
			return resultsdir.Cell{}, fmt.Errorf("warm-up: %w", err)
		}
	}
	load.Intervals = r.intervals()
	counters := r.servedCounters(topo)
	defer counters.close()
	before, err := counters.served(ctx)
	if err != nil {
		return resultsdir.Cell{}, fmt.Errorf("count the servers' commands: %w", err)
	}
	if cell.Load == "open" && r.Worker == nil {
		// The requests due in the measured part are served to the end, up to as long
		// again, and arrive for the whole duration however long the loop's set-up took:
		// workers keep to their agreed schedule instead.
		open.Drain, open.For = r.Config.Duration.D(), r.Config.Duration.D()
	}
	res, err := r.runLoad(ctx, l, load, open, cell, open.Discard+r.Config.Duration.D())
	if err != nil {
		return resultsdir.Cell{}, err
	}
	if ctx.Err() != nil {
		return resultsdir.Cell{}, ctx.Err()
	}
	after, err := counters.served(ctx)
	if err != nil {
		return resultsdir.Cell{}, fmt.Errorf("count the servers' commands: %w", err)
	}
	if probe != nil {
		res.Attempt.Merge(probe)
	}
	if probeErr != nil {
		res.Errors["attempt-probe"]++ // counted with the cell's errors; its load ran whole
	}
	measured, err := r.record(index, cell, res, res.Started) // the clock's start, after every connection opened
	if counters != nil {
		measured.ServerCommands = servedPerGrant(after-before, res.Granted+res.Discarded) // the counters span both
	}
	if r.Worker != nil {
		r.tagCell(&measured, cell, start, res.Started, open.Rate)
	}
	if err == nil && r.Config.CrashHandoffs > 0 && r.Worker == nil {
		err = r.crashHandoffs(ctx, index, cell, topo, l, load, &measured)
	}
	return measured, err
}

// connectBudget bounds the opening of a cell's connections, every client to every node.
const connectBudget = time.Minute

// runLoad runs the cell's load for d, closed or open; an open loop given its own span
// (open.For) keeps to it instead.
func (r *Runner) runLoad(ctx context.Context, l locks.Locker, load bench.Load, open bench.Open, cell Cell,
	d time.Duration) (bench.OpenResult, error) {
	if cell.Load == "open" && open.For > 0 {
		return bench.RunOpen(ctx, l, load, open, bench.RealClock{})
	}
	runCtx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	if cell.Load == "open" {
		return bench.RunOpen(runCtx, l, load, open, bench.RealClock{})
	}
	res, err := bench.RunClosed(runCtx, l, load, func() bool { return true })
	return bench.OpenResult{Result: res}, err
}

// record turns a measurement into a results cell and writes its histogram logs.
func (r *Runner) record(index int, cell Cell, res bench.OpenResult, start time.Time) (resultsdir.Cell, error) {
	out := resultsdir.Cell{
		Name: cell.Name(), Repeat: cell.Repeat, Strategy: cell.Strategy, Clients: cell.Clients, Keys: cell.Keys,
		Hold: resultsdir.Duration(cell.Hold), TTL: resultsdir.Duration(cell.TTL),
		KeyDist: cell.KeyDist, HoldDist: cell.HoldDist, AppendFsync: cell.AppendFsync,
		Network: resultsdir.Network{
			Profile: cell.Network.Name, Latency: resultsdir.Duration(cell.Network.Latency),
			Jitter: resultsdir.Duration(cell.Network.Jitter), SlowNode: cell.Network.SlowNode,
		},
		Load:     resultsdir.LoadMode{Mode: cell.Load, Wait: r.Config.WaitMode()},
		Warmup:   resultsdir.Duration(r.Config.Warmup),
		Duration: resultsdir.Duration(r.Config.Duration),
		Elapsed:  resultsdir.Duration(res.Elapsed),
		Attempts: res.Attempts, Granted: res.Granted, Refused: res.Refused,
		CutOffAttempts: res.CutOffAttempts, CutOffHolds: res.CutOffHolds,
		CyclesPerSecond: res.CyclesPerSecond(),
		Latency:         map[string]resultsdir.Summary{},
		Histograms:      map[string]string{},
	}
	if f := res.Fairness; f.Clients > 0 {
		out.Fairness = &resultsdir.Fairness{Clients: f.Clients, Jain: f.Jain, WorstP99: resultsdir.Duration(f.WorstP99),
			WorstClient: f.WorstClient, Starved: f.Starved}
	}
	floor, err := queueFloor(cell, r.Config.Seed+uint64(index))
	if err != nil {
		return resultsdir.Cell{}, fmt.Errorf("queueing floor: %w", err)
	}
	out.Floor = floor
	if cell.Network.Name == "one-slow" && out.Network.SlowNode == "" {
		out.Network.SlowNode = "master-0"
	}
	if len(res.Errors) > 0 {
		out.Errors = res.Errors
	}
	if res.Attempts > 0 {
		out.ContendedFailureRatio = float64(res.Refused) / float64(res.Attempts)
	}
	if cell.Load == "open" {
		out.Load.Arrival, out.Load.TargetRate = cell.Arrival, cell.Rate
		out.Load.AchievedRate, out.Load.Dropped = res.AchievedRate(), res.Dropped
	}
	pieces := make([]piece, len(res.Intervals))
	for i, iv := range res.Intervals {
		pieces[i] = piece{iv.Elapsed, iv.Granted, lockHistograms(iv.Recorder)}
	}
	out.Intervals = summarizePieces(pieces)
	for metric, h := range lockHistograms(res.Recorder) {
		rel := filepath.Join(resultsdir.HistogramsDir, fmt.Sprintf("%03d-%s.hlog", index, metric))
		logged := spans(metric, h, pieces, start, res.Elapsed)
		for i := range logged {
			logged[i].Tag = r.logTag()
		}
		if err := resultsdir.WriteHistogramLog(r.Out, rel, logged); err != nil {
			return out, err
		}
		out.Latency[metric] = resultsdir.Summarize(h)
		out.Histograms[metric] = rel
	}
	return out, nil
}

// lockHistograms are a lock recording's histograms by metric.
func lockHistograms(rec *bench.Recorder) map[string]*hdrhistogram.Histogram {
	return map[string]*hdrhistogram.Histogram{
		resultsdir.MetricAttempt: rec.Attempt, resultsdir.MetricAcquire: rec.AcquireWait,
		resultsdir.MetricRelease: rec.Release, resultsdir.MetricCycle: rec.Cycle,
		resultsdir.MetricHandoff: rec.Handoff,
	}
}

// noteWaiting records how strategy's cycles wait, in a run of any age (a folder
// recorded before the wait was named has no map for it).
func (r *Runner) noteWaiting(strategy, how string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Run.Environment.Waiting == nil {
		r.Run.Environment.Waiting = map[string]string{}
	}
	r.Run.Environment.Waiting[strategy] = how
}
