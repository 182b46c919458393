// Package resultsdir is the on-disk form of a lockbench run: what later plots, reports
// and comparisons read. It formats and parses; it measures nothing.
package resultsdir

import (
	"encoding/json"
	"fmt"
	"time"
)

// SchemaVersion is bumped whenever a reader of an older version would misread a file.
const SchemaVersion = 1

// File names inside a results folder.
const (
	JSONFile      = "results.json"
	CSVFile       = "results.csv"
	ConfigFile    = "config.yaml" // the matrix a run measured, for --resume to check
	HistogramsDir = "histograms"
)

// Run is one `lockbench run`: its environment and one record per measured cell.
type Run struct {
	SchemaVersion int         `json:"schema_version"`
	Started       time.Time   `json:"started"`
	Finished      time.Time   `json:"finished,omitempty"`
	Complete      bool        `json:"complete"` // false while running or after an interruption
	Environment   Environment `json:"environment"`
	Cells         []Cell      `json:"cells"`
	// Resumed lists when the run was carried on with --resume after an interruption.
	Resumed []time.Time `json:"resumed,omitempty"`
	// Worker is set on one worker's share of a run spread over load hosts; Skipped
	// its cells with no clients of its own; Notes warnings a reader must see (merge).
	Worker  *WorkerTag    `json:"worker,omitempty"`
	Skipped []SkippedCell `json:"skipped,omitempty"`
	Notes   []string      `json:"notes,omitempty"`
}

// Has says whether the run holds the cell of name measured in pass repeat: a resumed
// run measures only the cells it does not have.
func (r *Run) Has(name string, repeat int) bool {
	for _, c := range r.Cells {
		if c.Name == name && c.Repeat == repeat {
			return true
		}
	}
	return false
}

// Environment is what a reader needs to judge whether two runs are comparable.
type Environment struct {
	GoVersion   string            `json:"go_version"`
	RedisServer string            `json:"redis_server,omitempty"` // `redis-server --version`
	Libraries   map[string]string `json:"libraries"`              // module path -> version
	Provider    string            `json:"provider"`
	Topologies  map[string]string `json:"topologies"` // strategy -> deployment it ran on
	// Waiting is, per strategy, how its cycles waited for a held key: its library's own
	// words, or "lockbench backoff: ..." (see LoadMode.Wait).
	Waiting     map[string]string `json:"waiting,omitempty"`
	Cores       int               `json:"cores"`
	GOMAXPROCS  int               `json:"gomaxprocs"`
	OS          string            `json:"os"`
	Arch        string            `json:"arch"`
	Hostname    string            `json:"hostname,omitempty"`
	Seed        int64             `json:"seed"`
	CommandLine []string          `json:"command_line"`
	// Binary identifies the lockbench executable that measured (a hash of its file): a
	// resume with another build would mix two programs' measurements.
	Binary string `json:"binary,omitempty"`
	// RunID is the run's random id, in the prefix of every key it wrote (lockbench:<run-id>:).
	RunID string `json:"run_id,omitempty"`
	// External lists, per strategy, the servers of a deployment lockbench does not own.
	External map[string][]ExternalServer `json:"external,omitempty"`
}

// Cell is one point of the matrix and what was measured there.
type Cell struct {
	// Name sorts and compares like a benchstat name:
	// strategy=single/clients=8/keys=1/hold=0s/ttl=10s/net=none/load=closed
	Name string `json:"name"`
	// Repeat numbers the passes of a run repeated with --repeat N (1..N; 0 when the
	// run was not repeated). Cells of one name are repeats of one measurement.
	Repeat   int      `json:"repeat,omitempty"`
	Strategy string   `json:"strategy"`
	Clients  int      `json:"clients"`
	Keys     int      `json:"keys"`
	Hold     Duration `json:"hold"`
	// KeyDist and HoldDist are the draws of a cell whose keys or holds were spread
	// (uniform or zipf:S; exp or lognormal:SIGMA around Hold); empty when fixed.
	KeyDist  string `json:"key_dist,omitempty"`
	HoldDist string `json:"hold_dist,omitempty"`
	// AppendFsync is the servers' append-only-file policy when the run set one.
	AppendFsync string   `json:"appendfsync,omitempty"`
	TTL         Duration `json:"ttl"`
	Network     Network  `json:"network"`
	Load        LoadMode `json:"load"`
	Warmup      Duration `json:"warmup"`
	Duration    Duration `json:"duration"` // measured part, as asked
	Elapsed     Duration `json:"elapsed"`  // measured part, as it ran
	// Beside is how many strategies' cells the run measured at once, this one among
	// them, each on its own servers (0: one at a time).
	Beside int `json:"beside,omitempty"`

	Attempts        int64            `json:"attempts"`
	Granted         int64            `json:"granted"`
	Refused         int64            `json:"refused"`
	Errors          map[string]int64 `json:"errors,omitempty"`
	CyclesPerSecond float64          `json:"cycles_per_second"`
	// ContendedFailureRatio is refused attempts over all attempts.
	ContendedFailureRatio float64 `json:"contended_failure_ratio"`

	// CutOffAttempts are attempts the end of the measured part cut short, and
	// CutOffHolds locks whose hold it cut short: counted apart, in no latency
	// histogram (their latency is the deadline's), and released.
	CutOffAttempts int64 `json:"cut_off_attempts,omitempty"`
	CutOffHolds    int64 `json:"cut_off_holds,omitempty"`

	// Fairness is how evenly a closed loop served its clients, each asking alike; nil
	// for an open loop (its workers serve whichever request arrives) and a merged cell.
	Fairness *Fairness `json:"fairness,omitempty"`
	// ServerCommands is what the masters executed during the measured part, by their
	// own count; nil where it is not read (see ServerCommands).
	ServerCommands *ServerCommands `json:"server_commands,omitempty"`
	// Floor is the queueing floor of an open cell whose keys were drawn.
	Floor *QueueFloor `json:"floor,omitempty"`

	// Latency by metric: attempt, acquire (time to acquire, retries included),
	// release, cycle (acquire, hold, release).
	Latency map[string]Summary `json:"latency"`
	// Histograms by metric: path, relative to the results folder, of an HdrHistogram log
	// holding one interval histogram per entry of Intervals (one when there are none).
	Histograms map[string]string `json:"histograms"`
	// Intervals are the measured part cut into equal consecutive pieces (`run
	// --intervals K`), each summarized on its own: the within-run samples compare uses
	// when a cell was not repeated. Empty for a cell measured in one piece.
	Intervals []Interval `json:"intervals,omitempty"`

	// Workload is empty (or "lock") for acquire-hold-release cycles; "update" for
	// correct updates of an account row, whose figures are in Update.
	Workload string       `json:"workload,omitempty"`
	Guard    string       `json:"guard,omitempty"` // the write's guard mode; empty for a lock-free strategy
	Update   *UpdateStats `json:"update,omitempty"`

	// Worker is the share one worker measured; Workers the shares a merged cell adds up.
	Worker  *WorkerTag  `json:"worker,omitempty"`
	Workers []WorkerTag `json:"workers,omitempty"`
}

// Fairness is Jain's index over the clients' completed cycles (1: all alike, 1/n: one
// took them all), the worst client's p99 wait from request to grant and which client
// that was, and how many clients completed no cycle at all.
// ServerCommands counts, at the servers (Redis's INFO commandstats on every master, the
// readings' own INFO left out), the commands a cell's measured part made them execute:
// a library's polls, retries, scripts and extensions included. Read for the kinds whose
// masters answer any Redis command, on servers the run started, in a run of one
// process; the cycles cut off at the measured part's end are in the count, not the grants.
type ServerCommands struct {
	Executed int64   `json:"executed"`
	PerGrant float64 `json:"per_grant"` // executed over completed cycles; 0 with none
}

// QueueFloor is the wait a perfect mutex per key would give an open cell of Poisson
// arrivals whose keys were drawn (M/G/1 per key, FIFO), beside which the measured
// acquire wait reads as the lock's own cost; it assumes a client free for every request.
type QueueFloor struct {
	Method     string  `json:"method"` // exact M/M/1, or the simulation's size and seed
	HottestRho float64 `json:"hottest_key_rho"`
	WaitShare  float64 `json:"share_that_waits"`
	// Wait holds the mean, p50, p99 and p99.9 that are bounded; Unbounded names the
	// others (a saturated key's requests wait without bound).
	Wait          map[string]Duration `json:"wait"`
	Unbounded     []string            `json:"unbounded,omitempty"`
	SaturatedKeys int                 `json:"saturated_keys,omitempty"`
}

type Fairness struct {
	Clients     int      `json:"clients"`
	Jain        float64  `json:"jain"`
	WorstP99    Duration `json:"worst_client_p99_wait"`
	WorstClient int      `json:"worst_client"`
	Starved     int      `json:"starved_clients"`
}

// WorkloadUpdate names the update workload.
const WorkloadUpdate = "update"

// IsUpdate says whether the cell measured updates rather than lock cycles.
func (c Cell) IsUpdate() bool { return c.Workload == WorkloadUpdate }

// UpdateStats is what an update cell measured and what the store held afterwards.
type UpdateStats struct {
	Fence            string  `json:"fence,omitempty"` // where the tokens came from, for fenced guards
	UpdatesPerSecond float64 `json:"updates_per_second"`
	Applied          int64   `json:"applied"`
	Refused          int64   `json:"refused"` // refused by the store: stale fence, duplicate key
	Retries          int64   `json:"retries"` // lock refusals, version conflicts
	RetriesPerUpdate float64 `json:"retries_per_update"`
	// From the audit after the run, warm-up included: changes intended and applied, and
	// the applied ones missing from the rows (0 without faults; more is a finding).
	Intended    int   `json:"intended"`
	Failed      int   `json:"failed"`
	LostUpdates int64 `json:"lost_updates"`
	LostAmount  int64 `json:"lost_amount"`
	Duplicates  int   `json:"duplicates"`
}

// Interval is one consecutive piece of a cell's measured part.
type Interval struct {
	Elapsed Duration `json:"elapsed"`
	// Granted counts completed cycles (applied updates for the update workload), and
	// CyclesPerSecond is their rate over Elapsed, as the cell's own fields.
	Granted         int64              `json:"granted"`
	CyclesPerSecond float64            `json:"cycles_per_second"`
	Latency         map[string]Summary `json:"latency"`
}

// Metric names for Cell.Latency and Cell.Histograms.
const (
	MetricAttempt = "attempt"
	MetricAcquire = "acquire"
	MetricRelease = "release"
	MetricCycle   = "cycle"
	// MetricHandoff is from a release made while another client waited for the key to
	// its next grant: the lock idle between holders.
	MetricHandoff = "handoff"
	MetricUpdate  = "update" // one correct update, end to end (update workload)
	// MetricCrashHandoff is from a holder's death (its connections cut, no release) to
	// a waiting client's grant of its key: how long a crash blocks the key.
	MetricCrashHandoff = "crash_handoff"
)

// Metrics lists the latency metrics in report order.
var Metrics = []string{MetricAttempt, MetricAcquire, MetricRelease, MetricCycle, MetricUpdate}

// Network is the injected network condition of a cell and what it really added.
type Network struct {
	Profile string   `json:"profile"` // none, uniform, one-slow
	Latency Duration `json:"latency,omitempty"`
	Jitter  Duration `json:"jitter,omitempty"`
	// SlowNode names the node that got Latency under one-slow.
	SlowNode string `json:"slow_node,omitempty"`
	// MeasuredRTT is the median PING round trip through each node's proxy minus the
	// direct one: the delay the proxies really added, by node name.
	MeasuredAddedRTT map[string]Duration `json:"measured_added_rtt,omitempty"`
}

// LoadMode says how requests arrived.
type LoadMode struct {
	Mode string `json:"mode"` // closed or open
	// Wait is attempts (one Acquire at a time, lockbench's backoff between them; "" in
	// older files) or natural (a library's own wait, where the strategy has one).
	Wait string `json:"wait,omitempty"`
	// Open loop only: the arrival process and the rate asked for and achieved.
	Arrival      string  `json:"arrival,omitempty"` // constant or poisson
	TargetRate   float64 `json:"target_rate,omitempty"`
	AchievedRate float64 `json:"achieved_rate,omitempty"`
	// Dropped counts open-loop requests still queued when the cell ended.
	Dropped int64 `json:"dropped,omitempty"`
}

// Summary is the percentile digest of one latency histogram.
type Summary struct {
	Count int64    `json:"count"`
	P50   Duration `json:"p50"`
	P90   Duration `json:"p90"`
	P99   Duration `json:"p99"`
	P999  Duration `json:"p99.9"`
	Max   Duration `json:"max"`
	Mean  Duration `json:"mean"`
	// P99Low and P99High bound the p99 at 95% confidence, distribution-free (the
	// order statistics around rank 0.99 n) for independent samples: the waits of one
	// key's busy period are not, so under contention the truth is wider. P99High is 0
	// when too few samples lie past the p99 to bound it above.
	P99Low  Duration `json:"p99_low,omitempty"`
	P99High Duration `json:"p99_high,omitempty"`
}

// Duration is a time.Duration that reads and writes as "1.5ms" in JSON.
type Duration time.Duration

func (d Duration) D() time.Duration { return time.Duration(d) }
func (d Duration) String() string   { return time.Duration(d).String() }

func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration: want a string like \"1.5ms\", got %s", b)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("duration %q: %w", s, err)
	}
	*d = Duration(v)
	return nil
}
