// Package synth writes plausible, deterministic results folders for tests: the shape of
// what `lockbench run` writes, with latencies drawn from a simple model of each strategy.
// The numbers are invented; only their shape (ordering, knees, slopes) is realistic.
package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
)

// Options choose which matrix to write and how to distort it.
type Options struct {
	// Stores declare the strategies written and their invented costs (backend.Synthetic).
	Stores *backend.Catalog
	Seed   uint64
	// Repeats writes every cell this many times under the same name (default 1).
	Repeats int
	// Slowdown multiplies every latency and divides every throughput (default 1).
	Slowdown float64
	// Small writes a reduced matrix (fewer strategies and client counts), for golden files.
	Small bool
	// Samples per histogram (default 2000).
	Samples int
	// NoHistograms keeps summaries but writes no histogram logs: quicker, for tests
	// that read only results.json.
	NoHistograms bool
	// Intervals cuts every cell into this many consecutive pieces, as `lockbench run
	// --intervals` does (default DefaultIntervals); NoIntervals writes cells in one piece,
	// as runs before intervals did.
	Intervals   int
	NoIntervals bool
	// Stationary draws every run and repeat from one source: no run-to-run spread of
	// throughput (the A/A premise). Without it each repeat's throughput moves by up to ±1%.
	Stationary bool
	// RunSpread is the standard deviation of a run effect on the log of every figure:
	// each repeat (and each run, by its seed) is that much slower or faster as a whole,
	// all its cells and intervals alike, as one run's machine state makes it.
	RunSpread float64
	// SlowCell, when set, names the one cell Slowdown applies to; the others keep
	// their speed.
	SlowCell string
}

// DefaultIntervals is the synthetic cells' interval count, as `lockbench run`'s default.
const DefaultIntervals = 10

// model is the invented cost of one strategy, as its store declared it.
type model struct {
	name string
	backend.Synthetic
}

// models are the strategies whose stores gave them a synthetic cost, by position.
func models(stores *backend.Catalog) []model {
	var out []model
	for _, st := range stores.Strategies() {
		if st.Synthetic != nil {
			out = append(out, model{st.Name, *st.Synthetic})
		}
	}
	return out
}

// cellSpec is one point of the synthetic matrix.
type cellSpec struct {
	m       model
	clients int
	keys    int
	net     resultsdir.Network
	load    resultsdir.LoadMode
}

// Started is the fixed start time of every synthetic run.
var Started = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// Write writes results.json, results.csv and the histogram logs of a synthetic run
// into dir and returns the run.
func Write(dir string, o Options) (*resultsdir.Run, error) {
	run, logs := generate(o)
	for _, l := range logs {
		if err := resultsdir.WriteHistogramLog(dir, l.rel, l.spans); err != nil {
			return nil, err
		}
	}
	if err := resultsdir.WriteRun(dir, run); err != nil {
		return nil, err
	}
	return run, nil
}

// Generate builds a synthetic run in memory, without histogram logs: for tests that
// compare many runs.
func Generate(o Options) *resultsdir.Run {
	o.NoHistograms = true
	run, _ := generate(o)
	return run
}

// histogramLog is one histogram log a synthetic run names, to be written.
type histogramLog struct {
	rel   string
	spans []resultsdir.Span
}

func generate(o Options) (*resultsdir.Run, []histogramLog) {
	if o.Repeats <= 0 {
		o.Repeats = 1
	}
	if o.Slowdown <= 0 {
		o.Slowdown = 1
	}
	if o.Samples <= 0 {
		o.Samples = 2000
	}
	switch {
	case o.NoIntervals:
		o.Intervals = 1
	case o.Intervals <= 0:
		o.Intervals = DefaultIntervals
	}
	run := &resultsdir.Run{
		SchemaVersion: resultsdir.SchemaVersion,
		Started:       Started, Finished: Started.Add(20 * time.Minute), Complete: true,
		Environment: resultsdir.Environment{
			GoVersion: "go1.26.8", RedisServer: "Redis server v=7.0.15 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 " +
				"build=synthetic",
			Libraries: map[string]string{
				"github.com/go-redsync/redsync/v4": "v4.18.1",
				"github.com/redis/go-redis/v9":     "v9.23.0",
				"go.etcd.io/etcd/client/v3":        "v3.7.3",
			},
			Provider:   "process",
			Topologies: map[string]string{},
			Cores:      2, GOMAXPROCS: 1, OS: "linux", Arch: "amd64", Seed: int64(o.Seed),
			CommandLine: []string{"lockbench", "run", "--synthetic"},
		},
	}
	var logs []histogramLog
	specs := matrix(o.Stores, o.Small)
	for i, s := range specs {
		run.Environment.Topologies[s.m.name] = s.m.Topology
		for r := 0; r < o.Repeats; r++ {
			rng := rand.New(rand.NewPCG(o.Seed, uint64(i*1000+r)))
			cell, cellLogs := makeCell(s, i, r, o, rng)
			if o.Repeats > 1 {
				cell.Repeat = r + 1
			}
			run.Cells = append(run.Cells, cell)
			logs = append(logs, cellLogs...)
		}
	}
	return run, logs
}

func matrix(stores *backend.Catalog, small bool) []cellSpec {
	var ms []model
	for _, m := range models(stores) {
		if !small || m.Small {
			ms = append(ms, m)
		}
	}
	clients := []int{1, 8, 64}
	uniform := []time.Duration{time.Millisecond, 5 * time.Millisecond}
	slow := []time.Duration{10 * time.Millisecond, 50 * time.Millisecond}
	rates := []float64{500, 1000, 2000, 4000, 8000}
	if small {
		clients = []int{1, 8}
		uniform = uniform[:1]
		slow = slow[:1]
		rates = []float64{1000, 2000, 4000, 8000}
	}
	closed := resultsdir.LoadMode{Mode: "closed"}
	none := resultsdir.Network{Profile: "none"}
	var specs []cellSpec
	for _, m := range ms {
		for _, c := range clients {
			specs = append(specs, cellSpec{m, c, 1, none, closed})
			if c > 1 {
				specs = append(specs, cellSpec{m, c, c, none, closed})
			}
		}
		for _, l := range uniform {
			if m.Unproxied {
				break
			}
			added := map[string]resultsdir.Duration{"node-0": resultsdir.Duration(2*l + l/16)}
			specs = append(specs,
				cellSpec{m, 8, 8, resultsdir.Network{Profile: "uniform", Latency: resultsdir.Duration(l), MeasuredAddedRTT: added},
					closed})
		}
		if m.SlowNode != backend.NoSlowNode {
			for _, l := range slow {
				specs = append(specs,
					cellSpec{m, 8, 8, resultsdir.Network{Profile: "one-slow", Latency: resultsdir.Duration(l), SlowNode: "master-4"},
						closed})
			}
		}
		if m.OpenLoop == backend.BothMatrix || (!small && m.OpenLoop == backend.FullMatrix) {
			for _, r := range rates {
				specs = append(specs,
					cellSpec{m, 64, 64, none, resultsdir.LoadMode{Mode: "open", Arrival: "poisson", TargetRate: r}})
			}
		}
	}
	return specs
}

// Name formats a cell name the way the runner does.
func Name(strategy string, clients, keys int, net resultsdir.Network, load resultsdir.LoadMode) string {
	n := "none"
	if net.Profile != "none" && net.Profile != "" {
		n = fmt.Sprintf("%s-%s", net.Profile, net.Latency)
	}
	l := "closed"
	if load.Mode == "open" {
		l = fmt.Sprintf("open-%g", load.TargetRate)
	}
	return fmt.Sprintf("strategy=%s/clients=%d/keys=%d/hold=0s/ttl=10s/net=%s/load=%s", strategy, clients, keys, n, l)
}

func makeCell(s cellSpec, index, repeat int, o Options, rng *rand.Rand) (resultsdir.Cell, []histogramLog) {
	attempt, acquire, cps := costs(s)
	slowdown := o.Slowdown * runEffect(o, repeat)
	if o.SlowCell != "" && o.SlowCell != Name(s.m.name, s.clients, s.keys, s.net, s.load) {
		slowdown = runEffect(o, repeat)
	}
	attempt = time.Duration(float64(attempt) * slowdown)
	acquire = time.Duration(float64(acquire) * slowdown)
	cps /= slowdown
	if spread := 1 + 0.02*(rng.Float64()-0.5); !o.Stationary { // run-to-run noise of about 1%
		cps *= spread
	}
	elapsed := 10 * time.Second
	pieces := newPieces(o.Intervals, elapsed)
	rate := cps
	if s.load.Mode == "open" {
		rate = math.Min(s.load.TargetRate, cps)
	}
	if len(pieces) > 1 { // the cell's throughput is what its intervals completed
		rate = pieces.drawThroughput(rate, rand.New(rand.NewPCG(o.Seed, uint64(index*1000+repeat)|intervalStream)))
		cps = rate
	}
	cell := resultsdir.Cell{
		Name: Name(s.m.name, s.clients, s.keys, s.net, s.load), Strategy: s.m.name, Clients: s.clients, Keys: s.keys,
		Hold: 0, TTL: resultsdir.Duration(10 * time.Second), Network: s.net, Load: s.load,
		Warmup: resultsdir.Duration(time.Second), Duration: resultsdir.Duration(elapsed),
		Elapsed:         resultsdir.Duration(elapsed),
		CyclesPerSecond: cps, Latency: map[string]resultsdir.Summary{}, Histograms: map[string]string{},
	}
	cell.Granted = int64(cps * elapsed.Seconds())
	cell.Attempts = cell.Granted
	if s.keys < s.clients || (s.keys == 1 && s.clients > 1) {
		cell.Refused = cell.Granted * int64(s.clients-1) / 2
		cell.Attempts += cell.Refused
		cell.ContendedFailureRatio = float64(cell.Refused) / float64(cell.Attempts)
	}
	if s.load.Mode == "open" {
		cell.Load.AchievedRate = rate
		cell.CyclesPerSecond = rate
	}
	var logs []histogramLog
	for _, mm := range []struct {
		metric string
		median time.Duration
	}{{resultsdir.MetricAttempt, attempt}, {resultsdir.MetricAcquire, acquire}} {
		h := hdrhistogram.New(1000, int64(time.Minute), 2)
		for i := 0; i < o.Samples; i++ {
			// Log-normal body with an occasional slow tail, as lock latencies look.
			v := float64(mm.median) * math.Exp(0.35*rng.NormFloat64())
			if rng.Float64() < 0.01 {
				v *= 3 + 5*rng.Float64()
			}
			h.RecordValue(int64(v))
			pieces.record(mm.metric, i*len(pieces)/o.Samples, int64(v))
		}
		cell.Latency[mm.metric] = resultsdir.Summarize(h)
		if o.NoHistograms {
			continue
		}
		rel := fmt.Sprintf("%s/%03d-%d-%s.hlog", resultsdir.HistogramsDir, index, repeat, mm.metric)
		logs = append(logs, histogramLog{rel, pieces.spans(mm.metric, h)})
		cell.Histograms[mm.metric] = rel
	}
	if len(pieces) > 1 {
		cell.Intervals = pieces.intervals()
	}
	return cell, logs
}

// runStream sets the random stream of run effects apart from the cells' own.
const runStream = 1 << 41

// runEffect is the factor one repeat of a run is slower by, shared by all its cells.
func runEffect(o Options, repeat int) float64 {
	if o.RunSpread == 0 {
		return 1
	}
	return math.Exp(o.RunSpread * rand.New(rand.NewPCG(o.Seed, uint64(repeat)|runStream)).NormFloat64())
}

// costs models the median attempt and acquire latency and the throughput of a cell.
func costs(s cellSpec) (attempt, acquire time.Duration, cps float64) {
	base := float64(s.m.Attempt)
	switch s.net.Profile {
	case "uniform":
		base += s.m.RoundTrips * 2 * float64(s.net.Latency)
	case "one-slow":
		if s.m.SlowNode == backend.MajorityWithoutSlowNode {
			base *= 1.1 // a majority answers without the slow node
		} else {
			base += 2 * float64(s.net.Latency)
		}
	}
	contended := s.keys < s.clients
	switch {
	case s.load.Mode == "open":
		u := s.load.TargetRate / s.m.Capacity
		cps = math.Min(s.load.TargetRate, s.m.Capacity)
		if u < 0.95 {
			acquire = time.Duration(base / (1 - u))
		} else {
			acquire = time.Duration(base * 20 * u * u) // past the knee the queue grows for the whole cell
		}
		return time.Duration(base), acquire, cps
	case contended:
		attemptD := base * (1 + 0.1*float64(s.clients))
		cps = 1e9 / (base * 2) / (1 + 0.15*math.Log2(float64(s.clients)))
		return time.Duration(attemptD), time.Duration(attemptD * float64(s.clients) * 0.8), cps
	}
	cps = math.Min(float64(s.clients)*1e9/(base*2), s.m.Capacity)
	lat := math.Max(base, float64(s.clients)*1e9/cps/2)
	return time.Duration(lat), time.Duration(lat), cps
}
