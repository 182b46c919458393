package plan

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/adr"
	"github.com/lockbench/lockbench/adr/modelcheck"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/safety/results"
)

// boundaryTrials is the judged trials a side of a boundary gets: the model says none
// breaks below and every one above, so a few trials can contradict it.
const boundaryTrials = 3

// boundaryFactors are the sides run, as factors of the model's boundary: just below
// and just above it (the scenarios' boundary-factors default).
var boundaryFactors = []float64{0.8, 1.2}

// factorsParam is boundaryFactors as a name=value for the scenarios' --param.
func factorsParam() string {
	var fs []string
	for _, f := range boundaryFactors {
		fs = append(fs, strconv.FormatFloat(f, 'g', -1, 64))
	}
	return "boundary-factors=" + strings.Join(fs, ",")
}

// boundarySteps check the size models at the workload's TTL and hold: a pause just
// below and just above the lease left, a single master's clock jump either side of
// TTL - hold, and Redlock's jump either side of drift x TTL where a trial fits; then
// what no model sizes yet.
func (p *Plan) boundarySteps(w *workload.Workload, in *adr.Inputs, out string) {
	p.pauseBoundaryStep(w, in, out)
	p.singleJumpBoundaryStep(w, in, out)
	p.redlockJumpStep(w, in, out)
	p.unsizedSteps(w)
}

// pauseBoundaryStep runs pause-past-ttl's boundary mode on the options' strategies:
// the holder works the workload's hold, then stops either side of the lease left; at
// the workload's TTL when it is short, else at the lab's two (pauseTTLs).
func (p *Plan) pauseBoundaryStep(w *workload.Workload, in *adr.Inputs, out string) {
	if r := w.Faults.ClientPause; r == nil || r.PerYear == 0 {
		return
	}
	var options []string
	for _, o := range planOptions(w) {
		_, ok := adr.ProbeFor(backend.ClientPauseFault, o)
		if ok && o.Kind != adr.LockFree && !slices.Contains(options, o.Probe) {
			options = append(options, o.Probe)
		}
	}
	for _, ttl := range pauseTTLs(w) {
		p.pauseBoundaryAt(w, in, out, ttl, slices.Clone(options))
	}
}

// pauseBoundaryAt is the boundary step at one TTL: the workload's, with its hold, or
// a lab TTL with the hold scaled to the same share of it.
func (p *Plan) pauseBoundaryAt(w *workload.Workload, in *adr.Inputs, out string, ttl time.Duration, run []string) {
	run = grantedAsAsked(ttl, run)
	hold, sides := w.HoldD, modelcheck.Pause(in.Safety, w.TTLD, w.HoldD)
	where, dir := fmt.Sprintf("the workload's TTL %v", ttl), "pause-boundary"
	if ttl != w.TTLD {
		hold = modelcheck.ScaledHold(w.HoldD, ttl, w.TTLD)
		sides = modelcheck.PauseScaled(in.Safety, ttl, w.TTLD, w.HoldD)
		where = fmt.Sprintf("the lab's TTL %v (the workload's %v is longer than %v: the pause model, in units of the "+
			"lease left, carries the boundary to it)", ttl, w.TTLD, longestTTLRun)
		dir += "-" + ttl.String()
	}
	have := modelcheck.Covered(sides, boundaryTrials)
	run = slices.DeleteFunc(run, func(s string) bool { return slices.Contains(have, s) })
	if len(have) > 0 {
		p.Have = append(p.Have, fmt.Sprintf("pause boundary at TTL %v, hold %v, %d judged a side or more: %s", ttl, hold,
			boundaryTrials, strings.Join(have, ", ")))
	}
	if len(run) == 0 {
		return
	}
	sort.Strings(run)
	left := ttl - hold // the lease left after the hold
	variants := len(boundaryFactors) * len(run)
	st := Step{
		What: fmt.Sprintf("pause-past-ttl's boundary mode at %s: the holder works %v, then stops %s the lease left "+
			"(%v), unfenced, on %s: %d variants", where, hold, factorsText(), left, strings.Join(run, ", "), variants),
		Why: "the pause model's boundary: a pause breaks the lock exactly when it outlasts the lease left (none below, " +
			"every one above)",
		measure: safetyArgs("pause-past-ttl", boundaryTrials, paramArgs("strategies="+strings.Join(run, ","),
			"ttl="+ttl.String(), "mode=boundary", "pause-at="+hold.String(), factorsParam(),
			"parallel="+strconv.Itoa(pauseAtOnce(boundaryTrials)))...),
		Out: filepath.Join(out, dir),
	}
	if t, ok := trialTimeOf("pause-past-ttl", in); ok {
		var wait float64 // a trial lasts the hold and the stop: in TTLs, averaged over the sides
		for _, f := range boundaryFactors {
			wait += (hold.Seconds() + f*left.Seconds()) / ttl.Seconds() / float64(len(boundaryFactors))
		}
		per := t.at(ttl, wait)
		rounds := pauseRounds(boundaryTrials)
		st.Estimate = time.Duration(rounds*variants) * per
		st.EstimateFrom = fmt.Sprintf("%d variants x %d round(s) of %d trials at once x %v a trial (its fixed part kept, "+
			"the wait made the hold and the stop): %s; %s",
			variants, rounds, pauseAtOnce(boundaryTrials), per.Round(10*time.Millisecond), t.From, pauseAtOnceFrom)
	}
	p.add(st)
}

// longestTTLRun is the longest workload TTL the pause steps run at; past it they run
// at labPauseTTLs, two so that the boundary is seen to move with the TTL.
const longestTTLRun = 5 * time.Second

// labPauseTTLs are whole seconds of at least 2 s: every store grants them as asked.
var labPauseTTLs = []time.Duration{2 * time.Second, 4 * time.Second}

// pauseTTLs are the TTLs the pause steps run at: the workload's own, or the lab's two.
func pauseTTLs(w *workload.Workload) []time.Duration {
	if w.TTLD <= longestTTLRun {
		return []time.Duration{w.TTLD}
	}
	return labPauseTTLs
}

// grantedAsAsked drops the strategies whose servers would not grant ttl as asked
// (etcd's leases are whole seconds, at least 2 s: backend.Lease), so that no lab run
// is at another TTL than the one it names.
func grantedAsAsked(ttl time.Duration, strategies []string) []string {
	return slices.DeleteFunc(strategies, func(s string) bool {
		return !linked.Catalog().LeaseOf(s).GrantsAsAsked(ttl)
	})
}

// factorsText is "0.8 x and 1.2 x".
func factorsText() string {
	var fs []string
	for _, f := range boundaryFactors {
		fs = append(fs, strconv.FormatFloat(f, 'g', -1, 64)+" x")
	}
	return strings.Join(fs, " and ")
}

// singleJumpTTLFloor is single-clock-skew's shortest TTL.
const singleJumpTTLFloor = 200 * time.Millisecond

// weighsAny says some option the plan weighs measures fault k in scenario.
func weighsAny(w *workload.Workload, k backend.Fault, scenario string) bool {
	return slices.ContainsFunc(planOptions(w), func(o *adr.Option) bool {
		pr, ok := adr.ProbeFor(k, o)
		return ok && pr.Scenario == scenario
	})
}

// singleJumpBoundaryStep runs single-clock-skew's boundary mode at the workload's TTL
// and hold: jumps either side of TTL - hold, A leaving after its hold.
func (p *Plan) singleJumpBoundaryStep(w *workload.Workload, in *adr.Inputs, out string) {
	if r := w.Faults.ClockJump; r == nil || r.PerYear == 0 || !weighsAny(w, backend.ClockJumpFault, "single-clock-skew") {
		return
	}
	threshold := clocks.SingleJumpThreshold(w.TTLD, w.HoldD)
	var jumps []string
	for _, f := range boundaryFactors {
		jumps = append(jumps, time.Duration(f*float64(threshold)).Round(time.Millisecond).String())
	}
	st := Step{
		What: fmt.Sprintf("single-clock-skew's boundary mode at the workload's TTL %v and hold %v: the master's clock "+
			"jumps %s (%s TTL - hold = %v) at the grant, A leaving after its hold: %d variants",
			w.TTLD, w.HoldD, strings.Join(jumps, " and "), factorsText(), threshold, len(boundaryFactors)),
		Why: "the single-master jump model: the smallest breaking jump is TTL - hold (none below breaks, every one above " +
			"does)",
		Out: filepath.Join(out, "single-jump-boundary"),
	}
	if slices.Contains(modelcheck.Covered(modelcheck.SingleJump(in.Safety, w.TTLD, w.HoldD), boundaryTrials), "single") {
		p.Have = append(p.Have, fmt.Sprintf(
			"single-master jump boundary at the workload's TTL and hold, %d judged a side or more", boundaryTrials))
		return
	}
	if w.TTLD < singleJumpTTLFloor {
		st.NotYet = fmt.Sprintf("single-clock-skew runs TTLs of %v or more; the workload's is %v", singleJumpTTLFloor, w.TTLD)
		p.add(st)
		return
	}
	st.measure = safetyArgs("single-clock-skew", boundaryTrials,
		paramArgs("mode=boundary", "ttl="+w.TTLD.String(), "hold="+w.HoldD.String(), factorsParam())...)
	if t, ok := trialTimeOf("single-clock-skew", in); ok {
		per := t.at(w.HoldD, 1) // A leaves after its hold, not its lease
		st.Estimate = time.Duration(boundaryTrials*len(boundaryFactors)) * per
		st.EstimateFrom = fmt.Sprintf(
			"%d trials x %d variants x %v a trial (its fixed part kept, the wait made the hold): %s", boundaryTrials,
			len(boundaryFactors), per.Round(10*time.Millisecond), t.From)
	}
	p.add(st)
}

// jumpBoundaryClient is the strategy the step runs: the first registered, by position
// (which never moves), whose client awaits every independent master.
func jumpBoundaryClient() (string, bool) {
	for _, st := range linked.Catalog().Strategies() {
		if st.AwaitsEveryIndependentNode() {
			return st.Name, true
		}
	}
	return "", false
}

// redlockJumpsJudged counts the judged redlock-clock-jump trials of a client awaiting
// every node (redlock) with 3 nodes jumping jump at ttl.
func redlockJumpsJudged(in *adr.Inputs, ttl, jump time.Duration) int {
	n := 0
	for _, v := range results.Matching(in.Safety, "redlock-clock-jump", []string{"*"}) {
		j, errJ := time.ParseDuration(v.Params["jump"])
		t, errT := time.ParseDuration(v.Params["ttl"])
		awaitsEvery := linked.Catalog().StrategyAwaitsEveryIndependentNode(v.Params["strategy"])
		if awaitsEvery && v.Params["k"] == "3" && errJ == nil && errT == nil && j == jump && t == ttl {
			n += v.Tally.Judged
		}
	}
	return n
}

// redlockJumpStep: k >= 3 Redlock nodes jumping break it once J > drift x TTL
// (redsync's drift 0.01).
func (p *Plan) redlockJumpStep(w *workload.Workload, in *adr.Inputs, out string) {
	if r := w.Faults.ClockJump; r == nil || r.PerYear == 0 || !weighsAny(w, backend.ClockJumpFault, "redlock-kleppmann") {
		return
	}
	edge := time.Duration(0.01 * float64(w.TTLD))
	t, ok := trialTimeOf("redlock-clock-jump", in)
	fits := w.TTLD <= time.Minute // a trial lasts about one TTL
	below, above := (edge * 9 / 10).Round(time.Millisecond), (edge * 11 / 10).Round(time.Millisecond)
	st := Step{
		What: fmt.Sprintf("Redlock with 3 nodes jumping %v and %v, either side of drift x TTL = %v", below, above, edge),
		Why:  "the Redlock jump boundary at the workload's TTL",
		Out:  filepath.Join(out, "redlock-clock-jump"),
	}
	if redlockJumpsJudged(in, w.TTLD, below) >= boundaryTrials && redlockJumpsJudged(in, w.TTLD, above) >= boundaryTrials {
		p.Have = append(p.Have, fmt.Sprintf(
			"Redlock jump boundary at the workload's TTL (%v and %v), %d judged a side or more", below, above, boundaryTrials))
		return
	}
	if !fits || below < time.Millisecond {
		st.NotYet = fmt.Sprintf(
			"a trial lasts about one TTL (%v) and the jumps must be at least 1 ms apart: it does not fit", w.TTLD)
		p.add(st)
		return
	}
	client, registered := jumpBoundaryClient()
	if !registered {
		st.NotYet = "no registered strategy locks independent masters awaiting every node's answer"
		p.add(st)
		return
	}
	st.measure = safetyArgs("redlock-clock-jump", boundaryTrials,
		paramArgs("strategies="+client, "k=3", "ttl="+w.TTLD.String(), fmt.Sprintf("jumps=%v,%v", below, above))...)
	if ok {
		per := t.at(w.TTLD, 1)
		st.Estimate = time.Duration(boundaryTrials*2) * per
		st.EstimateFrom = fmt.Sprintf(
			"%d trials x 2 variants x %v a trial (its fixed part kept, the lease made the workload's TTL): %s", boundaryTrials,
			per.Round(10*time.Millisecond), t.From)
	}
	p.add(st)
}

// unsizedSteps names, per fault, the options whose probability no model carries to
// the workload: the ADR counts them as missing evidence whatever the lab runs.
func (p *Plan) unsizedSteps(w *workload.Workload) {
	for _, k := range w.FaultKinds() {
		if w.Faults.Rate(k).PerYear == 0 {
			continue
		}
		var labels []string
		for _, o := range planOptions(w) {
			pr, ok := adr.ProbeFor(k, o)
			switch {
			case !ok || adr.NotApplicable(k, o) != "" || !adr.LabOnly(w, k, o, w.Purpose == workload.Correctness):
			case pr.Scenario == "etcd-leader-kill": // consensus keeps it through the kill: a mechanism, no size
			default:
				if l := planLabel(o); !slices.Contains(labels, l) {
					labels = append(labels, l)
				}
			}
		}
		if len(labels) == 0 {
			continue
		}
		p.add(Step{
			What: fmt.Sprintf("%s sized to the workload for %s", k, strings.Join(labels, ", ")),
			Why: "the ADR's count a year: without a model the lab's probability is not the workload's, so it counts as " +
				"missing evidence",
			NotYet: notSizedWhy[k],
		})
	}
}

// notSizedWhy says what a model of each unsized fault would need.
var notSizedWhy = map[backend.Fault]string{
	backend.FailoverFault: "no model carries the lab's kill delays and replica lags (failover-loss, " +
		"fence-regression) to the workload's under a guard (WAIT, min-replicas, a cluster's failover) or behind a fence; " +
		"the crash-failover model sizes Sentinel's two holders with no guard only",
	backend.PlannedFailoverFault: "no model carries failover-loss's planned failovers (SENTINEL FAILOVER at its kill " +
		"delays and replica pauses) to the workload's lag: the crash model does not (the promoted replica applies " +
		"what it was sent before it takes the master's role); the window in which the old master still grants is " +
		"measured there (its trials' window_ms) and bounds the worst case, not the count",
	backend.MasterStallFault: "no model carries failover-loss's zombie (a master stopped until a replica is " +
		"promoted, then resumed) to the workload's stalls and lag; the window in which the resumed master still " +
		"grants is measured there (its trials' window_ms) and bounds the worst case, not the count",
	backend.RestartEmptyFault: "no model carries a node restarting empty to what reaches the data behind a fence " +
		"(redlock-fence's per-node counters, a lone member's disk), nor to a Redlock of other than five nodes; the quorum " +
		"model sizes a five-node Redlock's two holders only",
	backend.ClockJumpFault: "no model gives the share of the workload's holds on exactly a quorum including the " +
		"jumping node",
}

// boundaryReport says a report ran a scenario's boundary mode, whose trials neither
// count for its mechanism's variants nor time them.
func boundaryReport(r *results.Report) bool { return r != nil && r.Params["mode"] == "boundary" }
