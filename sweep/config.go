// Package sweep turns a configuration into a matrix of cells and runs them: it wires
// topologies, network profiles, strategies and the load engine, and hands each
// measured cell to resultsdir. It draws and reports nothing.
package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/lockbench/lockbench/bench"
)

// Config is a whole run: one or more sweeps (each the product of its axes) and the
// settings every cell shares.
type Config struct {
	Sweeps     []Sweep  `yaml:"sweeps,omitempty"`
	Duration   Duration `yaml:"duration,omitempty"`    // measured time per cell
	Warmup     Duration `yaml:"warmup,omitempty"`      // discarded time per cell, before it
	Seed       uint64   `yaml:"seed,omitempty"`        // for every random choice (arrivals, key prefixes)
	RetryDelay Duration `yaml:"retry_delay,omitempty"` // pause after a refused attempt
	// Wait is how a cycle waits for a held key: attempts or natural (bench.Load.Wait).
	Wait     string `yaml:"wait,omitempty"`
	Provider string `yaml:"provider,omitempty"` // empty: each topology kind's default
	// Server is the flavour the Redis-protocol kinds run on: redis or valkey (empty:
	// each strategy's own, Redis unless it needs Valkey).
	Server string `yaml:"server,omitempty"`
	// Deployment is the deployment file of provider external (relative to the config file).
	Deployment string `yaml:"deployment,omitempty"`
	// Intervals cuts each cell's measured part into this many equal pieces, each
	// summarized on its own (0: DefaultIntervals, fewer if the duration is short).
	Intervals int `yaml:"intervals,omitempty"`
	// Repeat measures the whole matrix this many times over, pass after pass (0 or 1: once).
	Repeat int `yaml:"repeat,omitempty"`
	// CrashHandoffs is how many times after each cell a holder dies holding a key while
	// a client waits for it (bench.ProbeCrashHandoffs); 0: never.
	CrashHandoffs int `yaml:"crash_handoffs,omitempty"`
	// Beside is how many strategies are measured at once, each on its own servers
	// (0 or 1: one at a time); only cells holding BesideHold or longer may.
	Beside int `yaml:"beside,omitempty"`
	// RunID, when set, prefixes every key (lockbench:<run-id>:<index>:), shared by all
	// the workers of one run and apart from every other run's on a shared server.
	RunID string `yaml:"run_id,omitempty"`
}

// Sweep is the product of its axes.
type Sweep struct {
	Strategies []string   `yaml:"strategies,omitempty"`
	Clients    []int      `yaml:"clients,omitempty"`
	Keys       []string   `yaml:"keys,omitempty"` // a number, or per-client
	Hold       []Duration `yaml:"hold,omitempty"`
	TTL        []Duration `yaml:"ttl,omitempty"`
	Network    []string   `yaml:"network,omitempty"` // none, uniform:5ms[~1ms], one-slow:20ms[@node]
	Load       string     `yaml:"load,omitempty"`    // closed or open
	Rate       []float64  `yaml:"rate,omitempty"`    // open loop: requests per second
	Arrival    string     `yaml:"arrival,omitempty"` // open loop: constant or poisson
	// KeyDist is how a cycle picks its key: fixed (client c on key c mod keys, the
	// default), uniform or zipf:S, drawn anew each cycle over the keys axis's count.
	KeyDist string `yaml:"key-dist,omitempty"`
	// HoldDist is the shape of the holds whose mean the hold axis gives: const (the
	// default), exp or lognormal:SIGMA.
	HoldDist string `yaml:"hold-dist,omitempty"`
	// AppendFsync are the append-only-file policies the Redis kinds' servers run under
	// (no, everysec, always), each its own deployment; empty: the strategy's own.
	AppendFsync []string `yaml:"appendfsync,omitempty"`
	// Workload is lock (acquire, hold, release: the default) or update (one correct
	// update of an account row, end to end); Guards are the update's write modes.
	Workload string   `yaml:"workload,omitempty"`
	Guards   []string `yaml:"guards,omitempty"`
}

// Duration reads "10ms" in YAML and flags.
type Duration time.Duration

func (d Duration) D() time.Duration { return time.Duration(d) }
func (d Duration) String() string   { return time.Duration(d).String() }

func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration like 10ms", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// ParseYAML reads a config file strictly: an unknown field or a wrong type is an
// error that names the field.
func ParseYAML(data []byte) (Config, error) {
	var cfg Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		if errors.Is(err, io.EOF) { // an empty file is an empty config
			return cfg, nil
		}
		return cfg, nameFields(data, err)
	}
	return cfg, nil
}

var lineRef = regexp.MustCompile(`line (\d+):`)

// nameFields adds the field on each reported line to a YAML error: yaml.v3 names the
// line and the Go type, but not the key the user wrote.
func nameFields(data []byte, err error) error {
	lines := strings.Split(string(data), "\n")
	msg := lineRef.ReplaceAllStringFunc(err.Error(), func(ref string) string {
		n, _ := strconv.Atoi(lineRef.FindStringSubmatch(ref)[1])
		if n < 1 || n > len(lines) {
			return ref
		}
		key, _, ok := strings.Cut(strings.TrimLeft(lines[n-1], " -"), ":")
		if !ok {
			return ref
		}
		return fmt.Sprintf("line %d (field %q):", n, strings.TrimSpace(key))
	})
	return errors.New(strings.TrimPrefix(msg, "yaml: "))
}

// YAML renders cfg as a config file ParseYAML reads back.
func (cfg Config) YAML() ([]byte, error) { return yaml.Marshal(cfg) }

// DefaultWait is how cycles wait when a config names no way: each library's or store's
// own wait, with the one-attempt cost probed beside it (bench.ProbeAttempts).
const DefaultWait = bench.WaitNatural

// recordedWait is the wait of a run whose saved config names none: it was recorded
// before the wait was a setting, one attempt at a time, and resumes so.
const recordedWait = bench.WaitAttempts

// WaitMode is the config's wait, or DefaultWait.
func (cfg Config) WaitMode() string {
	if cfg.Wait == "" {
		return DefaultWait
	}
	return cfg.Wait
}
