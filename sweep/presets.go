package sweep

import (
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/updates"
)

// ladder is the cost-of-safety ladder: the strategies their stores put in the run
// matrix, by position, where the program was built with them (etcd, ZooKeeper and the
// Redis Cluster register their strategies from their own packages).
func ladder() []string { return registered(linked.Catalog().InPreset(backend.RunMatrix)) }

// registered keeps the names the strategy registry holds, in order.
func registered(names []string) []string {
	var out []string
	for _, name := range names {
		if _, err := locks.TopologyFor(name); err == nil {
			out = append(out, name)
		}
	}
	return out
}

// networkProfiles says whether a run can put kind k under a network profile.
func networkProfiles(k backend.Kind) bool {
	sh, err := linked.Catalog().Lookup(k)
	return err == nil && sh.NetworkProfiles()
}

// networked keeps the strategies whose deployment runs behind lockbench's latency
// proxies, asked of the backend descriptors.
func networked(names []string) []string {
	var out []string
	for _, name := range names {
		spec, err := locks.TopologyFor(name)
		if err == nil && networkProfiles(spec.Kind) {
			out = append(out, name)
		}
	}
	return out
}

// DefaultConfig is the matrix `lockbench run` measures without a config or --quick.
func DefaultConfig() Config {
	return Config{
		Sweeps: []Sweep{{
			Strategies: ladder(),
			Clients:    []int{1, 8, 64, 256},
			Keys:       []string{"1", PerClient},
		}},
		Duration: Duration(5 * time.Second),
		Warmup:   Duration(time.Second),
		Seed:     1,
	}
}

// QuickConfig is the small matrix `make bench` runs: every figure of the report gets
// data, in about two to three minutes on two cores.
func QuickConfig() Config {
	return Config{
		Sweeps: []Sweep{
			// Cost and contention: 1, 8, 64 clients on one key or one key each.
			{Strategies: ladder(), Clients: []int{1, 8, 64}, Keys: []string{"1", PerClient}},
			// Network latency on every node, for the ladder's strategies whose store runs
			// behind the proxies (etcd's gRPC client and the cluster client do not).
			{Strategies: networked(ladder()), Clients: []int{8}, Keys: []string{PerClient},
				Network: []string{"uniform:1ms", "uniform:5ms"}},
			// One slow Redlock node, waiting for all nodes or for a majority.
			{Strategies: registered(linked.Catalog().InPreset(backend.SlowNodeSweep)), Clients: []int{8},
				Keys: []string{PerClient}, Network: []string{"none", "one-slow:20ms"}},
			// Open loop: where the queue builds.
			{Strategies: registered(linked.Catalog().InPreset(backend.OpenLoopSweep)), Clients: []int{64},
				Keys: []string{PerClient}, Load: "open", Arrival: "poisson", Rate: []float64{1000, 4000, 16000}},
		},
		Duration: Duration(1500 * time.Millisecond),
		Warmup:   Duration(300 * time.Millisecond),
		Seed:     1,
	}
}

// updateStrategies are every way to one correct update this program can run: the lock
// strategies of the update preset registered, and the lock-free ones.
func updateStrategies() []string {
	return append(registered(linked.Catalog().InPreset(backend.UpdateMatrix)), updates.LockFree()...)
}

// UpdateConfig is the matrix `lockbench run --workload update` measures: the cost of
// one correct update by every way, 1, 8 and 64 clients, one hot row or a row each,
// with the plain and (where the strategy has a fence) the fenced write. With quick,
// each cell is shorter.
func UpdateConfig(quick bool) Config {
	cfg := Config{
		Sweeps: []Sweep{{
			Strategies: updateStrategies(), Clients: []int{1, 8, 64}, Keys: []string{"1", PerClient},
			Workload: WorkloadUpdate,
		}},
		Duration: Duration(3 * time.Second),
		Warmup:   Duration(500 * time.Millisecond),
		Seed:     1,
	}
	if quick {
		cfg.Duration, cfg.Warmup = Duration(time.Second), Duration(200*time.Millisecond)
	}
	return cfg
}

// scalingClients is 1 to 1,024 clients in powers of two.
var scalingClients = []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}

// ScalingPresets are the scaling sweeps of `lockbench run --preset NAME`, each for one
// figure of the report: each store's axes of deployment size (Redis's: Redlock with 3,
// 5 and 7 nodes; WAIT with 1, 2 and 4 replicas, acknowledged by one or all); hold time
// on one hot key; clients 1 to 1,024 on a key each (the Universal Scalability Law fit).
func ScalingPresets() map[string]Config {
	short := func(sweeps ...Sweep) Config {
		return Config{Sweeps: sweeps, Duration: Duration(2 * time.Second), Warmup: Duration(time.Second), Seed: 1}
	}
	core := registered(linked.Catalog().InPreset(backend.ScalingMatrix))
	clients := short(Sweep{Strategies: core, Clients: scalingClients, Keys: []string{PerClient}})
	clients.Warmup = Duration(3 * time.Second) // a thousand clients' connections are opened inside the warm-up
	presets := map[string]Config{
		"scaling-hold": short(Sweep{Strategies: core, Clients: []int{8}, Keys: []string{"1"},
			Hold: []Duration{0, Duration(time.Millisecond), Duration(10 * time.Millisecond), Duration(100 * time.Millisecond)}}),
		"scaling-clients": clients,
	}
	// Each store's axes of deployment size (Redlock's masters, WAIT's replicas).
	for _, ax := range linked.Catalog().ScalingAxes() {
		var sizes []string
		for _, st := range linked.Catalog().OnAxis(ax.Preset) {
			sizes = append(sizes, st.Name)
		}
		presets[ax.Preset] = short(Sweep{Strategies: registered(sizes), Clients: []int{1, 8, 64}, Keys: []string{PerClient}})
	}
	return presets
}

// MergeFile lays a config file over base: the file's sweeps replace base's when it
// has any, and its settings replace base's where it sets them.
func MergeFile(base, file Config) Config {
	out := file
	if len(out.Sweeps) == 0 {
		out.Sweeps = base.Sweeps
	}
	if out.Duration == 0 {
		out.Duration = base.Duration
	}
	if out.Warmup == 0 {
		out.Warmup = base.Warmup
	}
	if out.Seed == 0 {
		out.Seed = base.Seed
	}
	if out.Provider == "" {
		out.Provider = base.Provider
	}
	if out.Server == "" {
		out.Server = base.Server
	}
	if out.Deployment == "" {
		out.Deployment = base.Deployment
	}
	return out
}
