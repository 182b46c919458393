package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/internal/flagrecord"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/resources/pgaccount"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/sweep/runs"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/updates"
)

// runFlags are the command line of `lockbench run`; sweep-axis flags override the
// same axis in every sweep of the config.
type runFlags struct {
	config, out, progress              string
	quick, noReport                    bool
	strategies, clients, keys, hold    string
	ttl, network, load, rate, arrival  string
	keyDist, holdDist, appendFsync     string
	duration, warmup, retryDelay, seed string
	wait                               string
	provider, workload, guards         string
	server                             string
	intervals, repeat                  string
	crashHandoffs                      string
	beside                             string
	resume                             string
	preset                             string
	redisImage                         string
	deployment, runID                  string
	workers                            workerFlags
}

func (f *runFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.config, "config", "", "YAML config file (flags override it)")
	fs.BoolVar(&f.quick, "quick", false, "the small default matrix (about 2-3 minutes on 2 cores)")
	fs.StringVar(&f.preset, "preset", "", "a scaling sweep instead of the default matrix: "+runs.PresetNames())
	fs.StringVar(&f.out, "out", "", "results folder (default results/<timestamp>; must not exist or be empty)")
	fs.BoolVar(&f.noReport, "no-report", false, "do not write report.md and figures at the end")
	fs.StringVar(&f.progress, "progress", "auto", "auto, bar or plain")
	fs.StringVar(&f.strategies, "strategies", "", "comma-separated: "+strings.Join(locks.Strategies(),
		", ")+"; with --workload update also the lock-free "+strings.Join(updates.LockFree(), ", "))
	fs.StringVar(&f.clients, "clients", "", "comma-separated client counts, e.g. 1,8,64,256")
	fs.StringVar(&f.keys, "keys", "", "comma-separated key counts: 1 (all fight for one key) .. per-client")
	fs.StringVar(&f.hold, "hold", "", "comma-separated time held inside the lock, e.g. 0,1ms,10ms")
	fs.StringVar(&f.keyDist, "key-dist", "",
		"how a cycle picks its key: fixed (client c on key c mod keys; the default), "+
			"uniform or zipf:S (drawn each cycle over --keys keys, which may outnumber the clients); zipf:SxC is C "+
			"copies of zipf:S, each over --keys/C keys (at C times a rate, each key sees the rate's own arrivals)")
	fs.StringVar(&f.holdDist, "hold-dist", "",
		"shape of the holds whose mean --hold gives: const (the default), exp or lognormal:SIGMA")
	fs.StringVar(&f.ttl, "ttl", "", "comma-separated lock TTLs, e.g. 10s")
	fs.StringVar(&f.appendFsync, "appendfsync", "", "comma-separated append-only-file policies of the Redis "+
		"servers, each its own deployment: no, everysec, always (default: no persistence)")
	fs.StringVar(&f.network, "network", "", "comma-separated profiles: none, uniform:5ms[~1ms], one-slow:20ms[@node]")
	fs.StringVar(&f.load, "load", "", "closed (acquire, hold, release, repeat) or open (fixed arrival rate)")
	fs.StringVar(&f.rate, "rate", "", "open load: comma-separated arrival rates per second")
	fs.StringVar(&f.arrival, "arrival", "", "open load: constant or poisson")
	fs.StringVar(&f.duration, "duration", "", "measured time per cell, e.g. 5s")
	fs.StringVar(&f.warmup, "warmup", "", "discarded time per cell before measuring, e.g. 1s")
	fs.StringVar(&f.retryDelay, "retry-delay", "", "pause after a refused attempt (default 0: retry at once)")
	fs.StringVar(&f.wait, "wait", "", "how a cycle waits for a held key: natural (the library's or store's own "+
		"wait where the strategy has one, lockbench's backoff elsewhere; the default) or attempts (one attempt at "+
		"a time, lockbench's backoff, as runs recorded before this setting)")
	fs.StringVar(&f.seed, "seed", "", "seed for everything random")
	fs.StringVar(&f.workload, "workload", "lock",
		"lock (acquire, hold, release) or update (one correct update of an account row: lock + guarded write, or lock-free)")
	fs.StringVar(&f.guards, "guards", "",
		"update workload: comma-separated write guards for lock strategies: "+strings.Join(pgaccount.ModeNames(),
			", ")+" (default unfenced, and fenced where the strategy has a fence)")
	fs.StringVar(&f.intervals, "intervals", "",
		fmt.Sprintf("cut each cell's measured part into K intervals, each summarized in results.json: the within-run "+
			"samples compare tests (default %d, fewer when --duration holds fewer of "+
			"%v)", sweep.DefaultIntervals, sweep.MinInterval))
	fs.StringVar(&f.crashHandoffs, "crash-handoffs", "", "after each cell, N times: a holder on its own connections "+
		"dies holding a key (the connections cut, no release) while a client waits for it; the time from the death to "+
		"the grant is the cell's crash_handoff (default 0: none; not for sentinel or cluster deployments, whose "+
		"clients learn addresses from the servers)")
	fs.StringVar(&f.beside, "beside", "", "measure up to N strategies at once, each on its own servers (default 1: "+
		"one at a time); only cells holding 1s or longer, whose waits the milliseconds of another's load cannot move")
	fs.StringVar(&f.repeat, "repeat", "",
		"measure the whole matrix N times, pass after pass (A B A B, not A A B B); compare and report use the repeats as "+
			"samples")
	fs.StringVar(&f.resume, "resume", "",
		"carry on the interrupted run in this folder instead of --out: alone, the command it recorded measures the cells "+
			"the folder lacks; flags given beside it must agree")
	fs.StringVar(&f.provider, "provider", "", "how servers run: "+strings.Join(topologies.ProviderNames(),
		", ")+" (default: per topology kind; auto: processes when installed, else containers, else embedded)")
	registerServerFlavour(fs, &f.server)
	registerRedisImage(fs, &f.redisImage)
	registerExternal(fs, &f.deployment, &f.runID)
	f.workers.register(fs)
}

// resolve builds the config: the quick or default matrix, or the config file, then
// the flags on top.
func (f *runFlags) resolve(fs *flag.FlagSet) (sweep.Config, error) { return f.resolveOn(fs, nil) }

// resolveOn is resolve with the flags on top of base instead, when base is not nil: the
// matrix a resumed run recorded.
func (f *runFlags) resolveOn(fs *flag.FlagSet, base *sweep.Config) (sweep.Config, error) {
	if f.workload != sweep.WorkloadLock && f.workload != sweep.WorkloadUpdate {
		return sweep.Config{}, fmt.Errorf("--workload %q: want lock or update", f.workload)
	}
	if base != nil {
		return f.override(fs, *base)
	}
	cfg, err := runs.Matrix(f.workload, f.quick, f.preset, f.config)
	if err != nil {
		return cfg, err
	}
	return f.override(fs, cfg)
}

// override sets the axes and settings the flags give, on every sweep of cfg.
func (f *runFlags) override(fs *flag.FlagSet, cfg sweep.Config) (sweep.Config, error) {
	var err error
	set := func(name string, apply func(string) error) {
		if err == nil && flagrecord.Given(fs, name) {
			if e := apply(fs.Lookup(name).Value.String()); e != nil {
				err = fmt.Errorf("--%s: %w", name, e)
			}
		}
	}
	eachSweep := func(apply func(*sweep.Sweep, string) error) func(string) error {
		return func(v string) error {
			for i := range cfg.Sweeps {
				if e := apply(&cfg.Sweeps[i], v); e != nil {
					return e
				}
			}
			return nil
		}
	}
	set("workload", eachSweep(func(s *sweep.Sweep, v string) error { s.Workload = v; return nil }))
	set("guards", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Guards, e = splitList(v); return }))
	set("strategies", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Strategies, e = splitList(v); return }))
	set("clients", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Clients, e = parseInts(v); return }))
	set("keys", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Keys, e = splitList(v); return }))
	set("hold", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Hold, e = parseDurations(v); return }))
	set("key-dist", eachSweep(func(s *sweep.Sweep, v string) error { s.KeyDist = v; return nil }))
	set("hold-dist", eachSweep(func(s *sweep.Sweep, v string) error { s.HoldDist = v; return nil }))
	set("appendfsync", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.AppendFsync, e = splitList(v); return }))
	set("ttl", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.TTL, e = parseDurations(v); return }))
	set("network", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Network, e = splitList(v); return }))
	set("load", eachSweep(func(s *sweep.Sweep, v string) error { s.Load = v; return nil }))
	set("rate", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Rate, e = parseFloats(v); return }))
	set("arrival", eachSweep(func(s *sweep.Sweep, v string) error { s.Arrival = v; return nil }))
	set("duration", func(v string) (e error) { cfg.Duration, e = parseDuration(v); return })
	set("warmup", func(v string) (e error) { cfg.Warmup, e = parseDuration(v); return })
	set("retry-delay", func(v string) (e error) { cfg.RetryDelay, e = parseDuration(v); return })
	set("wait", func(v string) error { cfg.Wait = v; return bench.CheckWait(v) })
	set("seed", func(v string) (e error) { cfg.Seed, e = strconv.ParseUint(v, 10, 64); return })
	set("intervals", func(v string) (e error) { cfg.Intervals, e = parseExplicitCount("intervals", v); return })
	set("repeat", func(v string) (e error) { cfg.Repeat, e = parseExplicitCount("repeat", v); return })
	set("crash-handoffs", func(v string) (e error) { cfg.CrashHandoffs, e = parseCount(v); return })
	set("beside", func(v string) (e error) { cfg.Beside, e = parseCount(v); return })
	set("deployment", func(v string) error { cfg.Deployment = v; return nil })
	set("server", func(v string) (e error) { cfg.Server, e = backend.ParseServerFlavour(v); return })
	set("provider", func(v string) error {
		if v == "external" {
			cfg.Provider = v // its deployment is read once the cells are known
			return nil
		}
		if _, e := topologies.ProviderNamed(v); e != nil {
			return e
		}
		cfg.Provider = v
		return nil
	})
	return cfg, err
}
