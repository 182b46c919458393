package sweep

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/contention"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/netem"
	"github.com/lockbench/lockbench/updates"
)

// PerClient as a keys value gives every client its own key (no contention).
const PerClient = "per-client"

// Cell is one point of the matrix.
type Cell struct {
	Strategy string
	Clients  int
	Keys     int
	Hold     time.Duration
	TTL      time.Duration
	Network  netem.Profile
	Load     string  // closed or open
	Rate     float64 // open only
	Arrival  string  // open only
	Workload string  // lock or update
	KeyDist  string  // "": fixed keys; else uniform or zipf:S, drawn each cycle
	HoldDist string  // "": constant holds; else exp or lognormal:SIGMA around Hold
	Guard    string  // update only: the write's guard mode; empty for a lock-free strategy
	// AppendFsync is the servers' append-only-file policy; "": the strategy's own.
	AppendFsync string
	// Repeat is the pass of a repeated run this cell belongs to (1..N), 0 when the run
	// is not repeated. It is not part of the name: repeats share one.
	Repeat int
}

// Workload names.
const (
	WorkloadLock   = "lock"
	WorkloadUpdate = "update"
)

// Name sorts and compares like a benchstat name.
func (c Cell) Name() string {
	name := fmt.Sprintf("strategy=%s/clients=%d/keys=%d/hold=%v/ttl=%v/net=%s/load=%s",
		c.Strategy, c.Clients, c.Keys, c.Hold, c.TTL, c.Network, c.Load)
	if c.Load == "open" {
		name += fmt.Sprintf("/arrival=%s/rate=%g", c.Arrival, c.Rate)
	}
	if c.KeyDist != "" {
		name += "/key-dist=" + c.KeyDist
	}
	if c.HoldDist != "" {
		name += "/hold-dist=" + c.HoldDist
	}
	if c.AppendFsync != "" {
		name += "/appendfsync=" + c.AppendFsync
	}
	if c.Workload == WorkloadUpdate {
		name += "/workload=update/guard=" + guardName(c.Guard)
	}
	return name
}

// withDefaults fills every axis the user left empty.
func (s Sweep) withDefaults() Sweep {
	if len(s.Clients) == 0 {
		s.Clients = []int{1, 8, 64}
	}
	if len(s.Keys) == 0 {
		s.Keys = []string{"1", PerClient}
	}
	if len(s.Hold) == 0 {
		s.Hold = []Duration{0}
	}
	if len(s.TTL) == 0 {
		s.TTL = []Duration{Duration(10 * time.Second)}
	}
	if len(s.Network) == 0 {
		s.Network = []string{"none"}
	}
	if s.Load == "" {
		s.Load = "closed"
	}
	if s.Load == "open" && s.Arrival == "" {
		s.Arrival = "poisson"
	}
	if s.Workload == "" {
		s.Workload = WorkloadLock
	}
	return s
}

// guardName is a cell's guard as printed: a lock-free strategy is its own guard.
func guardName(g string) string {
	if g == "" {
		return "none"
	}
	return g
}

// Cells validates cfg and expands it into its cells, grouped by strategy and network
// so that each topology and each set of proxies starts once per pass, and repeated
// cfg.Repeat times over (see repeated). The first error names the sweep and the field.
func (cfg Config) Cells() ([]Cell, error) {
	if cfg.Duration <= 0 {
		return nil, fmt.Errorf("duration = %v: must be > 0", cfg.Duration)
	}
	if cfg.Warmup < 0 {
		return nil, fmt.Errorf("warmup = %v: must be >= 0", cfg.Warmup)
	}
	if cfg.RetryDelay < 0 {
		return nil, fmt.Errorf("retry_delay = %v: must be >= 0", cfg.RetryDelay)
	}
	if err := bench.CheckWait(cfg.Wait); err != nil {
		return nil, err
	}
	if _, err := backend.ParseServerFlavour(cfg.Server); err != nil {
		return nil, err
	}
	if err := cfg.validateIntervals(); err != nil {
		return nil, err
	}
	if cfg.Repeat < 0 {
		return nil, fmt.Errorf("repeat = %d: must be >= 1", cfg.Repeat)
	}
	if cfg.CrashHandoffs < 0 {
		return nil, fmt.Errorf("crash-handoffs = %d: want a count of trials from 0", cfg.CrashHandoffs)
	}
	if len(cfg.Sweeps) == 0 {
		return nil, fmt.Errorf("sweeps: none given")
	}
	var cells []Cell
	seen := map[string]bool{}
	for i, s := range cfg.Sweeps {
		expanded, err := s.withDefaults().cells()
		if err != nil {
			return nil, fmt.Errorf("sweep %d: %w", i+1, err)
		}
		for _, c := range expanded {
			if !seen[c.Name()] { // sweeps may overlap; measure each cell once
				seen[c.Name()] = true
				cells = append(cells, c)
			}
		}
	}
	if err := cfg.checkCrashHandoffs(cells); err != nil {
		return nil, err
	}
	if err := cfg.checkBeside(cells); err != nil {
		return nil, err
	}
	order := map[string]int{}
	for _, c := range cells {
		if _, ok := order[c.Strategy]; !ok {
			order[c.Strategy] = len(order)
		}
	}
	sort.SliceStable(cells, func(i, j int) bool {
		if a, b := order[cells[i].Strategy], order[cells[j].Strategy]; a != b {
			return a < b
		}
		return cells[i].Network.String() < cells[j].Network.String()
	})
	return repeated(cells, cfg.Repeat), nil
}

func (s Sweep) cells() ([]Cell, error) {
	if len(s.Strategies) == 0 {
		return nil, fmt.Errorf("strategies: none given (want some of %s)", strings.Join(locks.Strategies(), ", "))
	}
	for field, list := range map[string][]string{"strategies": s.Strategies, "guards": s.Guards, "keys": s.Keys,
		"network": s.Network, "appendfsync": s.AppendFsync,
		"clients": texts(s.Clients), "hold": texts(s.Hold), "ttl": texts(s.TTL), "rate": texts(s.Rate)} {
		if err := distinct(list); err != nil {
			return nil, fmt.Errorf("%s: %w", field, err)
		}
	}
	guards, err := s.guardsByStrategy()
	if err != nil {
		return nil, err
	}
	for _, st := range s.Strategies {
		spec, err := updates.TopologyFor(st)
		if err != nil {
			return nil, fmt.Errorf("strategies: %w", err)
		}
		if s.Workload == WorkloadUpdate {
			for _, n := range s.Network {
				if n != "none" {
					return nil, fmt.Errorf("network %q: the update workload runs without a network profile (its PostgreSQL rows are "+
						"not reached through the proxies)", n)
				}
			}
		}
		shape, err := linked.Catalog().Lookup(spec.Kind)
		if err != nil {
			return nil, fmt.Errorf("strategy %s: %w", st, err)
		}
		for _, n := range s.Network {
			if n != "none" && !shape.NetworkProfiles() {
				return nil, fmt.Errorf("network %q: strategy %s %s", n, st, shape.NoNetwork)
			}
		}
	}
	for _, c := range s.Clients {
		if c < 1 {
			return nil, fmt.Errorf("clients = %d: must be >= 1", c)
		}
	}
	keyDist, err := keyDist(s.KeyDist)
	if err != nil {
		return nil, err
	}
	holdDist, err := holdDist(s.HoldDist)
	if err != nil {
		return nil, err
	}
	if s.Workload == WorkloadUpdate && (holdDist != "" || keyDist != "" && s.Load != "open") {
		return nil, fmt.Errorf("key-dist, hold-dist: the update workload has no hold, and draws its accounts only in " +
			"an open loop (a closed loop keeps each client on its account row)")
	}
	for _, h := range s.Hold {
		if h < 0 {
			return nil, fmt.Errorf("hold = %v: must be >= 0", h)
		}
		if h == 0 && holdDist != "" {
			return nil, fmt.Errorf("hold = 0 with hold-dist %s: a spread of holds needs a mean above 0", holdDist)
		}
	}
	for _, t := range s.TTL {
		if t <= 0 {
			return nil, fmt.Errorf("ttl = %v: must be > 0", t)
		}
	}
	policies, err := s.appendFsyncPolicies()
	if err != nil {
		return nil, err
	}
	var networks []netem.Profile
	for _, n := range s.Network {
		p, err := netem.ParseProfile(n)
		if err != nil {
			return nil, fmt.Errorf("network: %w", err)
		}
		networks = append(networks, p)
	}
	rates := []float64{0}
	switch s.Load {
	case "closed":
		if len(s.Rate) > 0 {
			return nil, fmt.Errorf("rate: only an open load has a rate (load is closed)")
		}
	case "open":
		if len(s.Rate) == 0 {
			return nil, fmt.Errorf("rate: an open load needs at least one rate")
		}
		for _, r := range s.Rate {
			if !(r > 0) || math.IsInf(r, 0) {
				return nil, fmt.Errorf("rate = %v: must be a finite number > 0", r)
			}
		}
		if s.Arrival != "constant" && s.Arrival != "poisson" {
			return nil, fmt.Errorf("arrival %q: want constant or poisson", s.Arrival)
		}
		rates = s.Rate
	default:
		return nil, fmt.Errorf("load %q: want closed or open", s.Load)
	}
	var out []Cell
	for _, st := range s.Strategies {
		for _, fsync := range policies { // one deployment each: its cells run together
			for _, network := range networks {
				for _, clients := range s.Clients {
					keyCounts, err := keysFor(s.Keys, clients, keyDist != "")
					if err != nil {
						return nil, err
					}
					for _, keys := range keyCounts {
						if keyDist != "" {
							if _, err := contention.ParseKeys(keyDist, keys); err != nil {
								return nil, fmt.Errorf("key-dist with %d keys: %w", keys, err)
							}
						}
						for _, hold := range s.Hold {
							for _, ttl := range s.TTL {
								for _, rate := range rates {
									for _, guard := range guards[st] {
										c := Cell{Strategy: st, Clients: clients, Keys: keys, Hold: hold.D(), TTL: ttl.D(),
											Network: network, Load: s.Load, Workload: s.Workload, Guard: guard, KeyDist: keyDist,
											HoldDist: holdDist, AppendFsync: fsync}
										if s.Load == "open" {
											c.Rate, c.Arrival = rate, s.Arrival
										}
										out = append(out, c)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return out, nil
}

// keysFor resolves the keys axis for one client count, dropping repeats (with one
// client, 1 and per-client are the same cell). Fixed keys beyond the clients are the
// per-client cell; drawn keys may outnumber the clients.
func keysFor(specs []string, clients int, drawn bool) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	for _, spec := range specs {
		k := clients
		if spec != PerClient {
			n, err := strconv.Atoi(spec)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("keys %q: want a number >= 1 or %s", spec, PerClient)
			}
			if n > clients && !drawn {
				continue // more fixed keys than clients is the same as per-client
			}
			if n > contention.MaxZipfKeys {
				return nil, fmt.Errorf("keys %d: at most %d", n, contention.MaxZipfKeys)
			}
			k = n
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out, nil
}

// defaultGuards are the update workload's guards when none are given: the plain write
// every strategy can make, and the fenced one where the strategy has a fence.
var defaultGuards = []string{"unfenced", "fenced"}

// guardsByStrategy resolves the guards axis for each strategy: one empty guard for the
// lock workload and for lock-free strategies; for a lock strategy every guard given
// (a pair that cannot work is an error naming both) or the defaults it can use.
func (s Sweep) guardsByStrategy() (map[string][]string, error) {
	out := map[string][]string{}
	if s.Workload != WorkloadLock && s.Workload != WorkloadUpdate {
		return nil, fmt.Errorf("workload %q: want lock or update", s.Workload)
	}
	if s.Workload == WorkloadLock {
		for _, st := range s.Strategies {
			if updates.IsLockFree(st) {
				return nil, fmt.Errorf("strategies: %s is lock-free: only the update workload runs it (--workload update)", st)
			}
		}
		if len(s.Guards) > 0 {
			return nil, fmt.Errorf("guards: only the update workload writes with a guard (workload is %s)", s.Workload)
		}
		for _, st := range s.Strategies {
			out[st] = []string{""}
		}
		return out, nil
	}
	if s.Load != "closed" && s.Load != "open" {
		return nil, fmt.Errorf("load %q: the update workload runs a closed or an open loop", s.Load)
	}
	for _, st := range s.Strategies {
		if updates.IsLockFree(st) {
			out[st] = []string{""}
			continue
		}
		if len(s.Guards) > 0 {
			for _, g := range s.Guards {
				if err := updates.Validate(st, g); err != nil {
					return nil, fmt.Errorf("guards: %w", err)
				}
			}
			out[st] = s.Guards
			continue
		}
		for _, g := range defaultGuards {
			if updates.Validate(st, g) == nil {
				out[st] = append(out[st], g)
			}
		}
	}
	return out, nil
}

// texts prints each value of an axis, for distinct.
func texts[T any](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = fmt.Sprint(v)
	}
	return out
}

// distinct refuses a list that names an entry twice or holds an empty one.
func distinct(list []string) error {
	seen := map[string]bool{}
	for _, v := range list {
		switch {
		case v == "":
			return fmt.Errorf("an empty entry")
		case seen[v]:
			return fmt.Errorf("%s is named twice", v)
		}
		seen[v] = true
	}
	return nil
}

// appendFsyncPolicies checks the appendfsync axis: each a Redis policy, and every
// strategy on a store with an append-only file. [""] when the axis is empty.
func (s Sweep) appendFsyncPolicies() ([]string, error) {
	if len(s.AppendFsync) == 0 {
		return []string{""}, nil
	}
	for _, p := range s.AppendFsync {
		for _, st := range s.Strategies {
			spec, err := updates.TopologyFor(st)
			if err != nil {
				return nil, err
			}
			spec.AppendFsync = p
			if err := spec.WithDefaults(linked.Catalog()).Validate(linked.Catalog()); err != nil {
				return nil, fmt.Errorf("appendfsync: strategy %s: %w", st, err)
			}
		}
	}
	return s.AppendFsync, nil
}
