package stats

import (
	"cmp"
	"fmt"
	"sort"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
)

// Condition is everything about a cell but its strategy: cells of different
// strategies under the same condition are comparable side by side.
type Condition struct {
	Clients    int
	Keys       int
	Hold       time.Duration
	TTL        time.Duration
	Network    string // profile: none, uniform, one-slow
	NetLatency time.Duration
	Jitter     time.Duration
	SlowNode   string
	Load       string // closed or open
	Arrival    string
	TargetRate float64
	KeyDist    string // "": client c on key c mod Keys; else drawn (uniform, zipf:S)
	HoldDist   string // "": constant holds; else exp or lognormal:SIGMA around Hold
}

// ConditionOf reads the condition of a cell; an empty profile or mode reads as the default.
func ConditionOf(c *resultsdir.Cell) Condition {
	cond := Condition{
		Clients: c.Clients, Keys: c.Keys, Hold: c.Hold.D(), TTL: c.TTL.D(),
		Network: c.Network.Profile, NetLatency: c.Network.Latency.D(), Jitter: c.Network.Jitter.D(),
		SlowNode: c.Network.SlowNode, Load: c.Load.Mode, Arrival: c.Load.Arrival, TargetRate: c.Load.TargetRate,
		KeyDist: c.KeyDist, HoldDist: c.HoldDist,
	}
	if cond.Network == "" {
		cond.Network = "none"
	}
	if cond.Load == "" {
		cond.Load = "closed"
	}
	return cond
}

// Contended says whether clients fight for keys: fewer fixed keys than clients, or
// keys drawn by popularity (two clients may draw one key however many there are).
func (c Condition) Contended() bool { return c.KeyDist != "" || c.Keys < c.Clients }

// Open says whether requests arrived at a set rate rather than back to back.
func (c Condition) Open() bool { return c.Load == "open" }

// Less orders conditions so that tables and figures read in a stable, natural order:
// closed loop before open, then by network, workload and rate.
func (c Condition) Less(d Condition) bool {
	return cmp.Or(
		cmp.Compare(c.Load, d.Load),
		cmp.Compare(networkRank(c.Network), networkRank(d.Network)),
		cmp.Compare(c.NetLatency, d.NetLatency),
		cmp.Compare(c.Jitter, d.Jitter),
		cmp.Compare(c.SlowNode, d.SlowNode),
		cmp.Compare(c.Hold, d.Hold),
		cmp.Compare(c.TTL, d.TTL),
		cmp.Compare(c.Clients, d.Clients),
		cmp.Compare(c.Keys, d.Keys),
		cmp.Compare(c.Arrival, d.Arrival),
		cmp.Compare(c.TargetRate, d.TargetRate),
		cmp.Compare(c.KeyDist, d.KeyDist),
		cmp.Compare(c.HoldDist, d.HoldDist),
	) < 0
}

func networkRank(profile string) string {
	switch profile {
	case "none":
		return "0"
	case "uniform":
		return "1"
	case "one-slow":
		return "2"
	}
	return "3" + profile
}

// NetworkLabel describes the injected network condition in words.
func (c Condition) NetworkLabel() string {
	switch c.Network {
	case "none":
		return "no injected latency"
	case "one-slow":
		return fmt.Sprintf("one slow node (%s, +%s)", c.SlowNode, c.NetLatency)
	}
	s := fmt.Sprintf("%s +%s", c.Network, c.NetLatency)
	if c.Jitter > 0 {
		s += fmt.Sprintf(" ±%s", c.Jitter)
	}
	return s
}

// LoadLabel describes how requests arrived, and how their keys and holds were drawn.
func (c Condition) LoadLabel() string {
	s := "closed loop"
	if c.Open() {
		s = fmt.Sprintf("open loop, %s arrivals at %s/s", c.Arrival, FormatRate(c.TargetRate))
	}
	if c.KeyDist != "" {
		s += ", keys drawn " + c.KeyDist
	}
	if c.HoldDist != "" {
		s += ", holds " + c.HoldDist
	}
	return s
}

// Group is one cell name and every cell of a run (or of several runs) that bears it:
// repeats of one measurement.
type Group struct {
	Name      string
	Strategy  string
	Condition Condition
	Repeats   []*resultsdir.Cell
}

// Groups folds the cells of runs into one group per name, sorted by condition, then
// by strategy in the safety order stores declare.
func Groups(stores *backend.Catalog, runs ...*resultsdir.Run) []*Group {
	byName := map[string]*Group{}
	var out []*Group
	for _, run := range runs {
		for i := range run.Cells {
			c := &run.Cells[i]
			g, ok := byName[c.Name]
			if !ok {
				g = &Group{Name: c.Name, Strategy: c.Strategy, Condition: ConditionOf(c)}
				byName[c.Name] = g
				out = append(out, g)
			}
			g.Repeats = append(g.Repeats, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Condition != b.Condition {
			return a.Condition.Less(b.Condition)
		}
		if ra, rb := SafetyRank(stores, a.Strategy), SafetyRank(stores, b.Strategy); ra != rb {
			return ra < rb
		}
		if a.Strategy != b.Strategy {
			return a.Strategy < b.Strategy
		}
		return a.Name < b.Name
	})
	return out
}

// Strategies lists the strategies of groups in the safety order stores declare, each once.
func Strategies(stores *backend.Catalog, groups []*Group) []string {
	seen := map[string]bool{}
	var names []string
	for _, g := range groups {
		if !seen[g.Strategy] {
			seen[g.Strategy] = true
			names = append(names, g.Strategy)
		}
	}
	SortStrategies(stores, names)
	return names
}

// Throughput is the median of the repeats' completed cycles per second.
func (g *Group) Throughput() float64 {
	return Median(g.samples(func(c *resultsdir.Cell) float64 { return c.CyclesPerSecond }))
}

// ThroughputSamples lists each repeat's cycles per second.
func (g *Group) ThroughputSamples() []float64 {
	return g.samples(func(c *resultsdir.Cell) float64 { return c.CyclesPerSecond })
}

// AchievedRate is the median open-loop rate the generator really reached.
func (g *Group) AchievedRate() float64 {
	return Median(g.samples(func(c *resultsdir.Cell) float64 { return c.Load.AchievedRate }))
}

// HasLatency says whether every repeat recorded the metric.
func (g *Group) HasLatency(metric string) bool {
	for _, c := range g.Repeats {
		if c.Latency[metric].Count == 0 {
			return false
		}
	}
	return len(g.Repeats) > 0
}

// Latency is the median over repeats of one percentile of one metric.
func (g *Group) Latency(metric string, p Percentile) time.Duration {
	return time.Duration(Median(g.LatencySamples(metric, p)))
}

// LatencySamples lists each repeat's percentile of a metric, in nanoseconds.
func (g *Group) LatencySamples(metric string, p Percentile) []float64 {
	return g.samples(func(c *resultsdir.Cell) float64 { return float64(p.Of(c.Latency[metric])) })
}

func (g *Group) samples(f func(*resultsdir.Cell) float64) []float64 {
	out := make([]float64, len(g.Repeats))
	for i, c := range g.Repeats {
		out[i] = f(c)
	}
	return out
}

// Median of values; the mean of the middle two for an even count; 0 for none.
func Median(values []float64) float64 {
	if len(values) == 0 {
		return 0
	}
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// LatencyMetric picks the metric figures and tables show: time to acquire (retries
// included) when the groups recorded it, else the single attempt.
func LatencyMetric(groups []*Group) string {
	for _, g := range groups {
		if g.HasLatency(resultsdir.MetricAcquire) {
			return resultsdir.MetricAcquire
		}
	}
	return resultsdir.MetricAttempt
}
