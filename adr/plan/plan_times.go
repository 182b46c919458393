package plan

import (
	"fmt"
	"strconv"
	"time"

	"github.com/lockbench/lockbench/adr"
)

// trialTime is how long one trial of a scenario takes: a fixed part (set-up, the
// checks) and, for scenarios that wait out a lease, WaitPerTTL seconds per second of
// the TTL it runs at. Measured, never guessed: From is the command and what it took.
type trialTime struct {
	Seconds    float64       // per trial, at TTL (set-up included: the report's seconds over its trials)
	TTL        time.Duration // the TTL the trials ran at
	WaitPerTTL float64       // the trial's length that follows the TTL: the pause or the lease waited out
	From       string
}

// at is the time of one trial at ttl with waitPerTTL (a pause-factor, say): the
// measured fixed part plus the new wait.
func (t trialTime) at(ttl time.Duration, waitPerTTL float64) time.Duration {
	fixed := t.Seconds - t.WaitPerTTL*t.TTL.Seconds()
	return time.Duration((max(fixed, 0) + waitPerTTL*ttl.Seconds()) * float64(time.Second))
}

// measuredTrials are per-trial times measured on this project's 2-core machine (loaded
// by other test runs) on 2026-12-02, with the binary of this branch; each From is the
// command, run from an empty folder, and the report's seconds over its trials.
var measuredTrials = map[string]trialTime{
	"pause-past-ttl": {Seconds: 0.94, TTL: 300 * time.Millisecond, WaitPerTTL: 3,
		From: "`lockbench safety --scenario pause-past-ttl --trials 2 --seed 1 --param strategies=single`: 10 trials in " +
			"9.4 s, each waiting 3 x TTL"},
	"single-clock-skew": {Seconds: 1.16, TTL: time.Second, WaitPerTTL: 1,
		From: "`lockbench safety --scenario single-clock-skew --trials 2 --seed 1`: 10 trials in 11.6 s, each waiting out " +
			"a 1 s lease"},
	"replication-lag": {Seconds: 0.63,
		From: "`lockbench safety --scenario replication-lag --trials 2 --seed 1 --param rates=0,1000 --param " +
			"saturate=off`: 4 trials in 2.5 s"},
	"host-crash": {Seconds: 2.17,
		From: "`lockbench safety --scenario host-crash --trials 2 --seed 1 --param strategies=single,etcd,zookeeper " +
			"--param fsync=no --param postgres=none`: 6 trials in 13 s (2026-12-05)"},
	"failover-loss": {Seconds: 2.9,
		From: "`lockbench safety --scenario failover-loss --trials 1 --seed 1 --param modes=none --param delays=0s,50ms`: " +
			"2 trials in 5.8 s"},
	"failover-loss/zombie": {Seconds: 11.6,
		From: "`lockbench safety --scenario failover-loss --trials 20 --param modes=zombie`: 20 trials in 232 s, each " +
			"waiting for sentinel to demote the resumed master (docs/safety.md)"},
	"redlock-clock-jump": {Seconds: 1.67, TTL: time.Second, WaitPerTTL: 1,
		From: "`lockbench safety --scenario redlock-clock-jump --trials 2 --seed 1 --param k=3 --param jumps=2ms,300ms " +
			"--param strategies=redlock`: 4 trials in 6.7 s, each about its 1 s lease"},
	"redlock-restart": {Seconds: 1.53,
		From: "`lockbench safety --scenario redlock-restart --trials 1 --seed 1`: 5 trials in 7.6 s"},
	"redlock-quorum": {Seconds: 0.45,
		From: "`lockbench safety --scenario redlock-quorum --trials 20 --seed 1` (findings/safety-all-20): 320 trials in 2 " +
			"min 23 s"},
	"redlock-kleppmann": {Seconds: 1.56,
		From: "`lockbench safety --scenario redlock-kleppmann --trials 1 --seed 1`: 6 trials in 9.4 s"},
	"fence-regression": {Seconds: 7.39,
		From: "`lockbench safety --scenario fence-regression --trials 1 --seed 1 --param strategies=sentinel`: 2 trials in " +
			"14.8 s"},
	"redlock-fence": {Seconds: 2.83,
		From: "`lockbench safety --scenario redlock-fence --trials 1 --seed 1`: 4 trials in 11.3 s"},
	"etcd-leader-kill": {Seconds: 2.73,
		From: "`lockbench safety --scenario etcd-leader-kill --trials 1 --seed 1 --param strategies=etcd-3,etcd`: 2 trials " +
			"in 5.5 s"},
	"lost-updates": {Seconds: 1.23,
		From: "`lockbench safety --scenario lost-updates --trials 1 --seed 1 --param breaks=pause --param " +
			"strategies=single,cas-version,unique-key,atomic --param guards=unfenced,fenced`: 7 trials in 8.6 s"},
}

// measuredCellOverhead is one benchmark cell's time beyond its warm-up and measured part
// (starting its servers, closing them): from `lockbench run --strategies single
// --clients 8 --keys 8 --hold 20ms --ttl 30s --load open --rate 200 --arrival poisson
// --duration 2s --warmup 500ms`, one cell in 2.79 s (results.json started to finished).
const measuredCellOverhead = 290 * time.Millisecond

const measuredCellFrom = "one cell's warm-up and measured part, plus 0.29 s to start and stop its servers (measured " +
	"for single: `lockbench run --strategies single --clients 8 --keys 8 --hold 20ms --ttl 30s --load open --rate 200 " +
	"--duration 2s --warmup 500ms` took 2.79 s); a replicated or consensus deployment starts slower"

// measuredUpdateCellOverhead is the same for a `run --workload update` cell, which
// starts PostgreSQL too: `lockbench run --workload update --strategies cas-version
// --clients 1 --duration 2s --warmup 500ms`, one cell in 3.78 s.
const measuredUpdateCellOverhead = 1280 * time.Millisecond

const measuredUpdateCellFrom = "one cell's warm-up and measured part, plus 1.28 s to start and stop its servers with " +
	"PostgreSQL (measured: `lockbench run --workload update --strategies cas-version --clients 1 --duration 2s --warmup " +
	"500ms` took 3.78 s)"

// trialTimeOf is the per-trial time of scenario: from the given results when they ran
// it (their report's seconds over its trials), else the one measured here; false when
// neither has it.
func trialTimeOf(scenario string, in *adr.Inputs) (trialTime, bool) {
	ref, known := measuredTrials[scenario]
	for i, rep := range in.Safety {
		if rep == nil || rep.Scenario != scenario || rep.Seconds <= 0 || boundaryReport(rep) {
			continue
		}
		n := 0
		for _, v := range rep.Variants {
			n += v.Tally.Trials
		}
		if n == 0 {
			continue
		}
		t := trialTime{Seconds: rep.Seconds / float64(n), WaitPerTTL: ref.WaitPerTTL}
		if f, err := strconv.ParseFloat(rep.Params["pause-factor"], 64); err == nil && scenario == "pause-past-ttl" {
			t.WaitPerTTL = pauseWait(f)
		}
		if d, err := time.ParseDuration(rep.Params["ttl"]); err == nil {
			t.TTL = d
		} else {
			t.TTL = ref.TTL // the scenario's default, as the reference ran it
		}
		where := "the given results"
		if i < len(in.SafetyFrom) {
			where = in.SafetyFrom[i]
		}
		t.From = fmt.Sprintf("%s: %d trials in %.1f s", where, n, rep.Seconds)
		return t, true
	}
	return ref, known
}
