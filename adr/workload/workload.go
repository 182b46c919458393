// Package workload reads the team's workload file, the ADR's input: its lock rate,
// hold, TTL and keys, the latency and violation budgets, and the faults it expects a
// year; it validates every field and derives what a fault finds held (occupancy).
package workload

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/contention"
	"github.com/lockbench/lockbench/report"
)

// Purpose is the write-up's split: what a broken lock costs.
type Purpose string

const (
	Efficiency  Purpose = "efficiency"  // a violation costs duplicate work
	Correctness Purpose = "correctness" // a violation corrupts data
)

// FaultKinds lists every fault the workload file may name (backend.Fault), in the order the ADR shows them.
var FaultKinds = []backend.Fault{
	backend.FailoverFault, backend.PlannedFailoverFault, backend.ClientPauseFault, backend.RestartEmptyFault,
	backend.ClockJumpFault, backend.HostCrashFault, backend.MasterStallFault, backend.RedeliveryFault,
}

// optional are the fault kinds a file may leave out (those added after files were
// written): absent, the workload is not weighed against them.
var optional = map[backend.Fault]bool{backend.MasterStallFault: true, backend.RedeliveryFault: true}

// Workload is the decision's input, as the team writes it (see docs/adr.md).
type Workload struct {
	Title    string  `yaml:"title"`
	Protects string  `yaml:"protects"`
	Purpose  Purpose `yaml:"purpose"`
	// LockRate is lock acquisitions per second; Hold and TTL are durations ("5ms").
	LockRate float64 `yaml:"lock_rate_per_second"`
	Hold     string  `yaml:"hold"`
	TTL      string  `yaml:"ttl"`
	// HoldDistribution is how holds spread around Hold, their mean: const (the
	// default), exp or lognormal:SIGMA.
	HoldDistribution string `yaml:"hold_distribution,omitempty"`
	// Watchdog is how often the holder's client extends its lease back to the TTL
	// ("10s", Redisson's every lockWatchdogTimeout / 3); empty: it never does.
	Watchdog string `yaml:"watchdog_interval,omitempty"`
	// OtherWrites is the writes a second the lock's Redis takes besides the lock's own:
	// they lengthen the replication lag a failover loses locks in.
	OtherWrites float64 `yaml:"other_writes_per_second,omitempty"`
	// ReplicationLag is the team's own lag from master to replica, as percentiles it
	// measured; absent, the failover model reads the lab's (a loopback replica's).
	ReplicationLag *Lag `yaml:"replication_lag,omitempty"`
	// Candidates are the lock strategies the team would run, by lockbench's names (a
	// library on a store: redsync, rueidislock, etcd...); absent, the quick matrix's.
	Candidates []string `yaml:"candidates,omitempty"`
	// Keys is how the locks spread over keys: each key's lock is a mutex.
	Keys   Keys   `yaml:"keys"`
	Budget Budget `yaml:"latency_budget"`
	// DuplicateBudget is the locks broken a year an efficiency lock may cause (each a
	// duplicate run).
	DuplicateBudget *float64 `yaml:"duplicate_work_budget_per_year"`
	// ViolationBudget is the violations reaching the data a year a correctness option
	// may cause, at the upper end of its interval.
	ViolationBudget *float64 `yaml:"violation_budget_per_year"`
	Faults          Faults   `yaml:"faults"`

	// Parsed from the strings above by Validate.
	HoldD, TTLD time.Duration `yaml:"-"`
	// HoldDist is HoldDistribution as `run --hold-dist` takes it: "" for const.
	HoldDist  string        `yaml:"-"`
	WatchdogD time.Duration `yaml:"-"` // 0: no watchdog
	SLO       report.SLO    `yaml:"-"`
	Occupancy Occupancy     `yaml:"-"`
}

// Lag is a replication lag the team measured on its own deployment: two percentiles
// and where they come from.
type Lag struct {
	P50    string `yaml:"p50"`
	P99    string `yaml:"p99"`
	Source string `yaml:"source"`
	// Parsed by Validate.
	P50D, P99D time.Duration `yaml:"-"`
}

// validate parses the percentiles: both above 0, the p50 at most the p99, a source.
func (l *Lag) validate() (field, msg string) {
	var err error
	if l.P50D, err = PositiveDuration(l.P50); err != nil {
		return ".p50", err.Error()
	}
	if l.P99D, err = PositiveDuration(l.P99); err != nil {
		return ".p99", err.Error()
	}
	if l.P50D > l.P99D {
		return ".p50", fmt.Sprintf("%v is above the p99, %v", l.P50D, l.P99D)
	}
	if l.Source == "" {
		return ".source", "missing: say how it was measured (INFO replication offsets, a --deployment run)"
	}
	return "", ""
}

// Budget is the latency budget: a percentile of the time to acquire.
type Budget struct {
	Percentile string `yaml:"percentile"` // p99 or p99.9
	Max        string `yaml:"max"`        // a duration, "5ms"
}

// FaultKinds are the kinds the workload weighs: every one of FaultKinds but an
// optional one it does not name (master_stall, redelivery).
func (w *Workload) FaultKinds() []backend.Fault {
	var out []backend.Fault
	for _, k := range FaultKinds {
		if !optional[k] || w.Faults.Rate(k) != nil {
			out = append(out, k)
		}
	}
	return out
}

// Faults are the rates the team expects per year, one entry per kind.
type Faults struct {
	// Failover is a crash: the primary dies and another is promoted.
	Failover *FaultRate `yaml:"failover"`
	// PlannedFailover is a handover on request (host patching): the old primary lives on.
	PlannedFailover *FaultRate `yaml:"planned_failover"`
	// MasterStall is the primary frozen past the failover's timeout, resuming beside the
	// promoted one: optional, as files written before it have none.
	MasterStall  *FaultRate `yaml:"master_stall"`
	ClientPause  *FaultRate `yaml:"client_pause"`
	RestartEmpty *FaultRate `yaml:"node_restart_empty"`
	ClockJump    *FaultRate `yaml:"clock_jump"`
	// HostCrash is a host losing power: its servers restart on what their disks had fsynced.
	HostCrash *FaultRate `yaml:"host_crash"`
	// Redelivery is a change sent again after it was applied: optional, as files written
	// before it have none; absent, no change is counted as applied twice.
	Redelivery *FaultRate `yaml:"redelivery"`
}

// FaultRate is one kind's expected count per year and where the figure comes from.
type FaultRate struct {
	PerYear float64 `yaml:"per_year"`
	Source  string  `yaml:"source"` // a public source, or "team's guess"
	// LongerThan (client_pause) and Above (clock_jump) say which faults are counted.
	LongerThan string `yaml:"longer_than,omitempty"`
	Above      string `yaml:"above,omitempty"`
	// AtMost (client_pause, clock_jump) is the largest the team expects: with it the
	// size models can say which counted faults cannot break a hold.
	AtMost string `yaml:"at_most,omitempty"`
}

// Rate returns the entry for a kind (nil when absent).
func (f Faults) Rate(k backend.Fault) *FaultRate {
	switch k {
	case backend.FailoverFault:
		return f.Failover
	case backend.PlannedFailoverFault:
		return f.PlannedFailover
	case backend.MasterStallFault:
		return f.MasterStall
	case backend.ClientPauseFault:
		return f.ClientPause
	case backend.RestartEmptyFault:
		return f.RestartEmpty
	case backend.ClockJumpFault:
		return f.ClockJump
	case backend.HostCrashFault:
		return f.HostCrash
	case backend.RedeliveryFault:
		return f.Redelivery
	}
	return nil
}

// FieldError is bad workload input; Field names it as the file spells it.
type FieldError struct {
	File, Field, Msg string
}

func (e FieldError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Field, e.Msg)
}

// Load reads and validates a workload file.
func Load(path string) (*Workload, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, FieldError{File: path, Msg: err.Error()}
	}
	return Parse(path, b)
}

// Parse decodes a workload, refusing unknown fields, and validates it.
func Parse(name string, b []byte) (*Workload, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true) // a misspelt field must not silently read as its default
	var w Workload
	if err := dec.Decode(&w); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, FieldError{File: name, Msg: "empty workload file"}
		}
		return nil, FieldError{File: name, Msg: yamlMessage(err)}
	}
	if err := w.validate(name); err != nil {
		return nil, err
	}
	return &w, nil
}

// validate checks every field and fills the parsed ones; the first problem is named.
func (w *Workload) validate(file string) error {
	bad := func(field, format string, args ...any) error {
		return FieldError{File: file, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if w.Purpose != Efficiency && w.Purpose != Correctness {
		return bad("purpose", "%q is not one of efficiency, correctness", w.Purpose)
	}
	if !(w.LockRate > 0) {
		return bad("lock_rate_per_second", "%v: want a positive rate", w.LockRate)
	}
	var err error
	if w.HoldD, err = PositiveDuration(w.Hold); err != nil {
		return bad("hold", "%v", err)
	}
	if w.TTLD, err = PositiveDuration(w.TTL); err != nil {
		return bad("ttl", "%v", err)
	}
	if w.HoldDist, err = holdShape(w.HoldDistribution, w.HoldD); err != nil {
		return bad("hold_distribution", "%v", err)
	}
	if w.Watchdog != "" {
		if w.WatchdogD, err = PositiveDuration(w.Watchdog); err != nil {
			return bad("watchdog_interval", "%v", err)
		}
		if w.WatchdogD >= w.TTLD {
			return bad("watchdog_interval", "%v: a watchdog must extend before the %v TTL runs out", w.WatchdogD, w.TTLD)
		}
	}
	for i, c := range w.Candidates {
		if c == "" || slices.Contains(w.Candidates[:i], c) {
			return bad("candidates", "%q is empty or named twice", c)
		}
	}
	if w.ReplicationLag != nil {
		if field, msg := w.ReplicationLag.validate(); msg != "" {
			return bad("replication_lag"+field, "%s", msg)
		}
	}
	if w.OtherWrites < 0 || math.IsNaN(w.OtherWrites) {
		return bad("other_writes_per_second", "%v: want 0 or more", w.OtherWrites)
	}
	if field, msg := w.Keys.validate(); msg != "" {
		return bad("keys"+field, "%s", msg)
	}
	w.Occupancy = OccupancyOf(w.LockRate, w.HoldD, w.Keys)
	if why := w.Occupancy.infeasible(w.HoldD); why != "" {
		return bad("keys", "%s", why)
	}
	if w.Budget.Percentile != "p99" && w.Budget.Percentile != "p99.9" {
		return bad("latency_budget.percentile", "%q: want p99 or p99.9", w.Budget.Percentile)
	}
	if _, err := PositiveDuration(w.Budget.Max); err != nil {
		return bad("latency_budget.max", "%v", err)
	}
	if w.SLO, err = report.ParseSLO(w.Budget.Percentile + "=" + w.Budget.Max); err != nil {
		return bad("latency_budget", "%v", err)
	}
	if w.Purpose == Efficiency {
		if w.DuplicateBudget == nil {
			return bad("duplicate_work_budget_per_year",
				"missing: an efficiency lock needs the duplicate runs a year the team accepts")
		}
		if *w.DuplicateBudget < 0 {
			return bad("duplicate_work_budget_per_year", "%v is negative", *w.DuplicateBudget)
		}
	}
	if w.Purpose == Correctness {
		if w.ViolationBudget == nil {
			return bad("violation_budget_per_year", "missing: a correctness option qualifies only when the upper end of its "+
				"violations reaching the data a year is within it (0 is allowed and needs the most trials)")
		}
		if *w.ViolationBudget < 0 {
			return bad("violation_budget_per_year", "%v is negative", *w.ViolationBudget)
		}
	} else if w.ViolationBudget != nil {
		return bad("violation_budget_per_year",
			"only a correctness workload has it (efficiency counts duplicate_work_budget_per_year)")
	}
	for _, k := range w.FaultKinds() {
		if err := w.Faults.Rate(k).validate(k); err != nil {
			return bad("faults."+string(k)+err.field, "%s", err.msg)
		}
	}
	return nil
}

// rateError names a field inside one fault entry.
type rateError struct{ field, msg string }

func (r *FaultRate) validate(k backend.Fault) *rateError {
	if r == nil {
		return &rateError{"", "missing: give per_year (0 if it cannot happen) and source"}
	}
	if r.PerYear < 0 {
		return &rateError{".per_year", fmt.Sprintf("%v is negative", r.PerYear)}
	}
	if r.Source == "" {
		return &rateError{".source", "missing: cite a public source or write \"team's guess\""}
	}
	if k == backend.ClientPauseFault {
		if _, err := PositiveDuration(r.LongerThan); err != nil {
			return &rateError{".longer_than", err.Error()}
		}
	} else if r.LongerThan != "" {
		return &rateError{".longer_than", "only client_pause has it"}
	}
	if k == backend.ClockJumpFault {
		if _, err := PositiveDuration(r.Above); err != nil {
			return &rateError{".above", err.Error()}
		}
	} else if r.Above != "" {
		return &rateError{".above", "only clock_jump has it"}
	}
	if r.AtMost != "" {
		least := map[backend.Fault]string{backend.ClientPauseFault: r.LongerThan, backend.ClockJumpFault: r.Above}[k]
		if least == "" {
			return &rateError{".at_most", "only client_pause and clock_jump have it"}
		}
		most, err := PositiveDuration(r.AtMost)
		if err != nil {
			return &rateError{".at_most", err.Error()}
		}
		if l, _ := PositiveDuration(least); most < l {
			return &rateError{".at_most", fmt.Sprintf("%v is below the smallest counted, %v", most, l)}
		}
	}
	return nil
}

var notFound = regexp.MustCompile(`field (\S+) not found in type \S+`)

// yamlMessage says a decoding error in one line, an unknown field as "unknown field X".
func yamlMessage(err error) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err.Error()
	}
	msgs := make([]string, len(te.Errors))
	for i, e := range te.Errors {
		msgs[i] = notFound.ReplaceAllString(e, "unknown field $1")
	}
	return strings.Join(msgs, "; ")
}

// PositiveDuration reads a duration the workload file gives, which must be above 0.
func PositiveDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, errors.New("missing: want a duration like 5ms")
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q: want a positive duration like 5ms", s)
	}
	return d, nil
}

// holdShape checks a hold distribution around mean: "" or const give "", exp and
// lognormal:SIGMA are kept as `run --hold-dist` takes them.
func holdShape(spec string, mean time.Duration) (string, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" || spec == string(contention.Const) {
		return "", nil
	}
	if _, err := contention.ShapedHold(spec, mean); err != nil {
		return "", err
	}
	return spec, nil
}

// HoldOf is the workload's hold distribution at mean.
func (w *Workload) HoldOf(mean time.Duration) (contention.Hold, error) {
	return contention.ShapedHold(w.HoldDist, mean)
}
