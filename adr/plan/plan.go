package plan

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/adr"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/results"
)

// Step is one measurement the ADR needs that the given results lack.
type Step struct {
	What    string   // what it measures, in words
	Why     string   // which figure of the ADR needs it
	Command string   // the exact lockbench command, rendered from Args; "" when none measures it yet
	Args    []string // the command's arguments after "lockbench", --out and the folder last
	NotYet  string   // with no command: what the suite cannot do yet
	// Estimate is the time the command takes, and EstimateFrom the measurement it
	// is read from; zero with "" when no time was measured for it.
	Estimate     time.Duration
	EstimateFrom string
	Out          string // the folder the command writes
	// measure is the command's arguments after "lockbench" up to --out: Into adds the
	// folder, so that the command is built from its parts and never parsed back.
	measure []string
}

// safetyArgs is a `lockbench safety` run of scenario, seeded, with params after it.
func safetyArgs(scenario string, trials int, params ...string) []string {
	return append([]string{"safety", "--scenario", scenario, "--trials", strconv.Itoa(trials), "--seed", "1"}, params...)
}

// paramArgs is each name=value as a --param argument.
func paramArgs(namesValues ...string) []string {
	var out []string
	for _, nv := range namesValues {
		out = append(out, "--param", nv)
	}
	return out
}

// Plan is what `lockbench adr --plan` prints: the steps still to run, and what the
// given results already cover.
type Plan struct {
	Workload string
	Steps    []Step
	Have     []string
	// Skipped says what the plan leaves out because no result of it could change the
	// decision.
	Skipped []string
}

// Total is the summed estimate of the steps that have one, and how many have none.
func (p *Plan) Total() (time.Duration, int) {
	var sum time.Duration
	unknown := 0
	for _, s := range p.Steps {
		switch {
		case s.Command == "":
		case s.EstimateFrom == "":
			unknown++
		default:
			sum += s.Estimate
		}
	}
	return sum, unknown
}

// planStrategies is the lock strategies the plan weighs (adr.WeighedStrategies).
func planStrategies(w *workload.Workload) []string { return adr.WeighedStrategies(w) }

// MakePlan lists what the ADR of w needs that in lacks, each step writing a folder
// under out. in may be empty (no results given).
func MakePlan(w *workload.Workload, workloadPath string, in *adr.Inputs, out string) *Plan {
	p := &Plan{Workload: workloadPath}
	if why := adr.LocksBeyondFloor(w); why != "" {
		// Every lock is ruled out before any measurement: run only the ways with no lock.
		p.Skipped = append(p.Skipped, "every lock's cost and faults: "+why)
		p.updateStep(w, in, out)
		p.trialSteps(w, in, out)
		return p
	}
	p.benchSteps(w, in, out)
	p.updateStep(w, in, out)
	p.lagStep(w, in, out)
	p.quorumStep(w, in, out)
	p.boundarySteps(w, in, out)
	p.trialSteps(w, in, out)
	return p
}

// add takes st into the plan, its command rendered from its parts for the folder it writes.
func (p *Plan) add(st Step) {
	if len(st.measure) > 0 {
		st = st.Into(st.Out)
	}
	p.Steps = append(p.Steps, st)
}

// Into is the step writing dir: its command, with the folder last as its own argument
// (a path may hold spaces).
func (s Step) Into(dir string) Step {
	s.Out = dir
	s.Args = append(slices.Clip(s.measure), "--out", dir)
	s.Command = "lockbench " + strings.Join(s.Args, " ")
	return s
}

// Completed lists the plan's folders that are complete and were made with their
// step's params: what an earlier --measure into the same folder finished.
func (p *Plan) Completed() ([]string, error) {
	var out []string
	for _, st := range p.Steps {
		if len(st.Args) == 0 {
			continue
		}
		folder, err := resultsdir.Inspect(st.Out)
		if err != nil {
			return nil, err
		}
		if folder.State == "complete" && folder.OtherParams(st.Args) == "" {
			out = append(out, st.Out)
		}
	}
	return out, nil
}

// Beside sends each step that would write into one of the complete folders to
// <folder>-more: what it still lacks goes beside it, not over it.
func (p *Plan) Beside(complete []string) {
	for i, st := range p.Steps {
		if slices.Contains(complete, st.Out) {
			p.Steps[i] = st.Into(st.Out + "-more")
		}
	}
}

func (p *Plan) lagStep(w *workload.Workload, in *adr.Inputs, out string) {
	failsOver := func(o *adr.Option) bool { return adr.NotApplicable(backend.FailoverFault, o) == "" }
	if w.Faults.Failover == nil || w.Faults.Failover.PerYear == 0 || !slices.ContainsFunc(planOptions(w), failsOver) {
		return // no option the plan weighs fails over: the crash model has nothing to size
	}
	if w.ReplicationLag != nil {
		p.Have = append(p.Have, "the team's replication lag (the workload's replication_lag)")
		return
	}
	m := &adr.CrashModel{WriteRate: 2*w.LockRate + w.OtherWrites}
	if _, why := m.LagAt(in.Safety); why == "" {
		p.Have = append(p.Have, fmt.Sprintf("replication lag at or above the workload's %.0f writes/s", m.WriteRate))
		return
	}
	rate := int(math.Ceil(m.WriteRate))
	dir := filepath.Join(out, "replication-lag")
	const trials = 5 // 50 probes on each of 2 replicas a trial: 500 lags a replica
	t, _ := trialTimeOf("replication-lag", in)
	p.add(Step{
		What: fmt.Sprintf(
			"replication lag at %d writes/s (a SET and a release per lock, plus %s other writes/s)", rate,
			adr.Plain(w.OtherWrites)),
		Why:          "the crash-failover model's lag distribution",
		measure:      safetyArgs("replication-lag", trials, paramArgs("rates="+strconv.Itoa(rate), "saturate=off")...),
		Estimate:     time.Duration(trials) * t.at(0, 0),
		EstimateFrom: fmt.Sprintf("%d trials x %.2f s: %s", trials, t.Seconds, t.From),
		Out:          dir,
	})
}

// quorumSizedAtAll says whether the quorum model sizes some fault the workload counts
// for option o: a node restarting empty, or a node's host crash, that can strike it.
func quorumSizedAtAll(w *workload.Workload, o *adr.Option) bool {
	for _, k := range []backend.Fault{backend.RestartEmptyFault, backend.HostCrashFault} {
		if w.Faults.Rate(k).PerYear > 0 && adr.QuorumSized(k, o) && adr.NotApplicable(k, o) == "" {
			return true
		}
	}
	return false
}

// quorumTrials is how many trials each redlock-quorum variant runs: the model reads
// two shares from them, so their intervals are the model's.
const quorumTrials = 20

// quorumStep measures how often the five-node Redlock clients' grants sit on exactly
// a quorum, alone and racing: the restart-empty model's shares.
func (p *Plan) quorumStep(w *workload.Workload, in *adr.Inputs, out string) {
	var missing []string
	for _, o := range planOptions(w) {
		if !quorumSizedAtAll(w, o) || slices.Contains(missing, o.Probe) {
			continue
		}
		if o.Kind != adr.Lock { // the model sizes the lock's own side only
			continue
		}
		if adr.QuorumSharesGiven(in.Safety, o.Probe) {
			p.Have = append(p.Have, "grants on exactly a quorum of "+o.Probe+", alone and racing")
			continue
		}
		missing = append(missing, o.Probe)
	}
	if len(missing) == 0 {
		return
	}
	t, _ := trialTimeOf("redlock-quorum", in)
	variants := 8 * len(missing) // share and three restarts, alone and racing, per strategy
	p.add(Step{
		What: fmt.Sprintf("how often grants of %s sit on exactly a quorum, alone and with racing clients, and the "+
			"restart of a node holding the key", strings.Join(missing, ", ")),
		Why:          "the Redlock restart-empty model's shares, and its check",
		measure:      safetyArgs("redlock-quorum", quorumTrials, paramArgs("strategies="+strings.Join(missing, ","))...),
		Estimate:     time.Duration(variants*quorumTrials) * t.at(0, 0),
		EstimateFrom: fmt.Sprintf("%d trials x %.2f s: %s", variants*quorumTrials, t.Seconds, t.From),
		Out:          filepath.Join(out, "redlock-quorum"),
	})
}

// planned is how the plan runs a scenario: its params and the variants they make.
type planned struct {
	params   []string
	variants int // with byStrategy, per strategy
	pooled   int // variants one probe pools (the kill delays of a failover-loss mode)
	// byStrategy: the scenario runs on the options' strategies (--param strategies=).
	byStrategy bool
}

// plannedRuns are the scenarios the ADR reads, run as their per-trial times were
// measured (measuredTrials), so that the variant count and the time per trial hold.
var plannedRuns = map[string]planned{
	"failover-loss":     {params: paramArgs("modes=" + failoverModes), variants: 25, pooled: 5},
	"pause-past-ttl":    {variants: 5, byStrategy: true}, // at pauseTTLs' first: see pauseParams
	"single-clock-skew": {variants: 5},
	"redlock-kleppmann": {variants: 6},
	"redlock-restart":   {variants: 7, byStrategy: true},
	// A Redis master only under appendfsync no, as the options deploy it (no AOF: no fsync).
	"host-crash":       {params: paramArgs("fsync=no", "postgres=none"), variants: 1, byStrategy: true},
	"redlock-fence":    {variants: 4},
	"etcd-leader-kill": {variants: 1, byStrategy: true},
	"fence-regression": {variants: 2, byStrategy: true},
	"lost-updates": {params: paramArgs("breaks=pause,redelivery", "strategies=single,cas-version,unique-key,atomic",
		"guards=unfenced,fenced"), variants: 10},
}

// failoverModes are failover-loss's modes the options read but the zombie, which runs
// only for a workload that counts a master's stall (its trials wait out sentinel's
// demotion of the resumed master: seconds more each).
const failoverModes = "none,wait1,wait2,min-replicas,planned"

// demoTrials is how often a forced interleaving is run: enough to show it is forced
// (k of k); no bound needs more, as it gives none.
const demoTrials = 3

// need is what the plan asks of one scenario.
type need struct {
	trials  int      // judged trials per variant
	reasons []string // the option and fault each count is for
	seen    []string // rates already seen above 0: no trial count brings them within
	// zombie: failover-loss runs its zombie mode too (a master's stall is counted).
	zombie bool
	// strategies are the options' own (pause-past-ttl runs on each of them); lacking,
	// those whose variants have fewer judged trials than asked (a scenario run by
	// strategy runs on those alone).
	strategies, lacking []string
}

// fewestJudged is the fewest judged trials of the variants; 0 when there are none.
func fewestJudged(vs []*results.Variant) int {
	if len(vs) == 0 {
		return 0
	}
	least := vs[0].Tally.Judged
	for _, v := range vs[1:] {
		least = min(least, v.Tally.Judged)
	}
	return least
}

func (p *Plan) trialSteps(w *workload.Workload, in *adr.Inputs, out string) {
	budget, side := *planBudget(w), "reaching the data"
	if w.Purpose == workload.Efficiency {
		side = "two holders"
	}
	striking := 0
	for _, k := range w.FaultKinds() {
		if w.Faults.Rate(k).PerYear > 0 {
			striking++
		}
	}
	needs := map[string]*need{}
	for _, o := range planOptions(w) {
		for _, k := range w.FaultKinds() {
			rate := w.Faults.Rate(k).PerYear
			if rate == 0 || adr.NotApplicable(k, o) != "" {
				continue
			}
			pr, ok := adr.ProbeFor(k, o)
			if !ok {
				continue
			}
			scenario, patterns := pr.Scenario, pr.Mutex
			if w.Purpose == workload.Correctness {
				scenario = pr.DataScenario()
				if pr.Data != nil {
					patterns = pr.Data
				}
			}
			if len(patterns) == 0 {
				continue
			}
			share := 1.0
			if m := adr.SizeModelFor(w, k, o); m != nil {
				share = m.Share
			}
			if share == 0 {
				continue // the size model says no counted fault breaks a hold
			}
			n := needs[scenario]
			if n == nil {
				n = &need{}
				needs[scenario] = n
			}
			n.zombie = n.zombie || k == backend.MasterStallFault
			label := fmt.Sprintf("%s under %s", planLabel(o), k)
			if !slices.Contains(n.strategies, o.Probe) {
				n.strategies = append(n.strategies, o.Probe)
			}
			vs := results.Matching(in.Safety, scenario, patterns)
			var want int
			var reason string
			switch broke, judged := tallyOf(vs, side == "two holders", pr); {
			case adr.Demonstrated(scenario, sampleVariants(scenario, patterns)):
				want, reason = demoTrials, label+" (a demonstration)"
			case broke > 0:
				n.seen = append(n.seen, fmt.Sprintf("%s: %d of %d", label, broke, judged))
				continue
			case adr.LabOnly(w, k, o, w.Purpose == workload.Correctness):
				want, reason = demoTrials, label+" (not sized: the lab's count only)"
			default:
				pool := max(plannedRuns[scenario].pooled, 1)
				per := int(math.Ceil(float64(adr.ZeroSeenTrials(rate*share*w.Occupancy.LocksHeld,
					budget/float64(striking))) / float64(pool)))
				if per == 0 {
					continue // within the budget even if every such fault broke every held lock
				}
				want, reason = per, fmt.Sprintf("%s (%d judged with none %s)", label, per*pool, side)
			}
			n.trials = max(n.trials, want)
			n.reasons = append(n.reasons, reason)
			if fewestJudged(vs) < want && !slices.Contains(n.lacking, o.Probe) {
				n.lacking = append(n.lacking, o.Probe)
			}
		}
	}
	scenarios := make([]string, 0, len(needs))
	for s := range needs {
		scenarios = append(scenarios, s)
	}
	sort.Strings(scenarios)
	for _, s := range scenarios {
		p.trialStep(w, in, out, s, needs[s])
	}
}

// trialStep is the step for one scenario's trials, or what the given results have.
func (p *Plan) trialStep(w *workload.Workload, in *adr.Inputs, out, scenario string, n *need) {
	have := judgedPerVariant(in.Safety, scenario)
	seen := ""
	if len(n.seen) > 0 {
		seen = "already seen, so no count of trials brings them within the budget: " + strings.Join(n.seen, "; ")
	}
	if n.trials == 0 {
		if seen != "" {
			p.Have = append(p.Have, scenario+": "+seen)
		}
		return
	}
	why := "judged trials for " + strings.Join(n.reasons, "; ")
	if seen != "" {
		why += "; " + seen
	}
	run, known := plannedRuns[scenario]
	if run.byStrategy && len(n.lacking) == 0 {
		p.Have = append(p.Have,
			fmt.Sprintf("%s: %d judged trials a variant on each of %s", scenario, n.trials, strings.Join(n.strategies, ", ")))
		return
	}
	if !run.byStrategy && have >= n.trials {
		p.Have = append(p.Have, fmt.Sprintf("%s: %d judged trials a variant, of %d needed", scenario, have, n.trials))
		return
	}
	params, variants := run.params, run.variants
	if run.byStrategy {
		n.strategies = n.lacking // the others have theirs
		sort.Strings(n.strategies)
		params = append(paramArgs("strategies="+strings.Join(n.strategies, ",")), run.params...)
		variants = run.variants * len(n.strategies)
	}
	what := fmt.Sprintf("%s: %d trials a variant (%d variants)", scenario, n.trials, variants)
	if !known {
		what = fmt.Sprintf("%s: %d trials a variant, at the scenario's defaults", scenario, n.trials)
	}
	if scenario == "pause-past-ttl" {
		params, variants, what = pauseParams(w, n.strategies, n.trials)
	}
	var keyedStores []string
	if scenario == "failover-loss" {
		if n.zombie {
			params, variants = paramArgs("modes="+failoverModes+",zombie"), variants+1
		}
		params, variants, keyedStores = failoverParams(params, variants, n.strategies)
		what = fmt.Sprintf("%s: %d trials a variant (%d variants)", scenario, n.trials, variants)
	}
	dir := filepath.Join(out, scenario)
	st := Step{What: what, Why: why, measure: safetyArgs(scenario, n.trials, params...), Out: dir}
	if t, ok := trialTimeOf(scenario, in); ok && known {
		wait := t.WaitPerTTL
		ttl := t.TTL
		if scenario == "pause-past-ttl" {
			wait, ttl = pauseWait(pauseFactor), pauseTTLs(w)[0]
		}
		per := t.at(ttl, wait)
		st.Estimate = time.Duration(n.trials*variants) * per
		st.EstimateFrom = fmt.Sprintf("%d trials x %d variants x %v a trial: %s", n.trials, variants,
			per.Round(10*time.Millisecond), t.From)
		if scenario == "pause-past-ttl" {
			rounds := pauseRounds(n.trials)
			st.Estimate = time.Duration(rounds*variants) * per
			st.EstimateFrom = fmt.Sprintf("%d variants x %d round(s) of %d trials at once x %v a trial: %s; its fixed part "+
				"kept, the wait made %g x the TTL (four variants pause %g x it, the slow-work one works 3 x it); %s",
				variants, rounds, pauseAtOnce(n.trials), per.Round(10*time.Millisecond), t.From, pauseWait(pauseFactor),
				pauseFactor, pauseAtOnceFrom)
		}
		if len(keyedStores) > 0 {
			st.EstimateFrom += fmt.Sprintf("; a %s trial, which starts its own deployment, timed as a sentinel one",
				strings.Join(keyedStores, " or "))
		}
		if scenario == "failover-loss" && n.zombie {
			z := measuredTrials["failover-loss/zombie"]
			extra := time.Duration(float64(n.trials) * (z.Seconds - t.Seconds) * float64(time.Second))
			st.Estimate += extra
			st.EstimateFrom += fmt.Sprintf("; the zombie's %d trials %v more: %s", n.trials, extra.Round(time.Second), z.From)
		}
	}
	p.add(st)
}

// keyedFailoverVariants is what failover-loss runs on a store whose primary is the
// key's master, of the planned modes: none and wait1, at its five default delays.
const keyedFailoverVariants = 2 * 5

// failoverParams names the stores of the options' keyed strategies (failover-loss
// runs sentinel unless told; a cluster only when named), with their variants.
func failoverParams(params []string, variants int, strategies []string) ([]string, int, []string) {
	var stores []string
	for _, s := range strategies {
		if store, _, ok := adr.KeyedFailoverOf(s); ok && !slices.Contains(stores, store) {
			stores = append(stores, store)
		}
	}
	if len(stores) == 0 {
		return params, variants, nil
	}
	sort.Strings(stores)
	return append(slices.Clip(params), paramArgs("strategies=sentinel,"+strings.Join(stores, ","))...), variants +
		keyedFailoverVariants*len(stores), stores
}

// pauseFactor is the shortest pause pause-past-ttl runs (its pause-factor's floor):
// the closest above the lease that it can check.
const pauseFactor = 1.5

// pauseWait is pause-past-ttl's mean wait a trial, in TTLs: four of its five variants
// a strategy pause factor x the TTL, watchdog-slow-work works 3 x it.
func pauseWait(factor float64) float64 { return (4*factor + 3) / 5 }

// pauseParams runs pause-past-ttl at the first of pauseTTLs (the workload's TTL, or
// the lab's when the workload's is long) on the options' strategies whose servers grant
// it as asked, trials trials a variant at once.
func pauseParams(w *workload.Workload, options []string, trials int) ([]string, int, string) {
	ttl := pauseTTLs(w)[0]
	run := grantedAsAsked(ttl, slices.Clone(options))
	sort.Strings(run)
	strategies := strings.Join(run, ",")
	n := plannedRuns["pause-past-ttl"].variants * len(run)
	where := fmt.Sprintf("the workload's TTL %v", ttl)
	if ttl != w.TTLD {
		where = fmt.Sprintf("the lab's TTL %v (the workload's %v is longer than %v: the pause model carries the "+
			"mechanism to it)", ttl, w.TTLD, longestTTLRun)
	}
	return paramArgs("strategies="+strategies, "ttl="+ttl.String(), fmt.Sprintf("pause-factor=%g", pauseFactor),
			"parallel="+strconv.Itoa(pauseAtOnce(trials))), n,
		fmt.Sprintf("pause-past-ttl at %s, pausing %g x it (the scenario's shortest pause): %d variants", where,
			pauseFactor, n)
}

// pauseParallel is the most pause-past-ttl trials of a variant the plan runs at once: a
// trial mostly waits out its pause, so trials side by side take about as long as one.
const pauseParallel = 4

// pauseAtOnceFrom is the measurement behind running them at once.
const pauseAtOnceFrom = "trials at once: `lockbench safety --scenario pause-past-ttl --trials 2 --seed 1 --param " +
	"strategies=single` took 9.33 s one at a time and 4.80 s with `--param parallel=2`, the same 10 judged"

// pauseAtOnce is how many of trials run at once.
func pauseAtOnce(trials int) int { return max(1, min(trials, pauseParallel)) }

// pauseRounds is how many trials' time trials take, pauseAtOnce at a time.
func pauseRounds(trials int) int {
	at := pauseAtOnce(trials)
	return (trials + at - 1) / at
}

// planBudget is the budget the purpose counts against.
func planBudget(w *workload.Workload) *float64 {
	if w.Purpose == workload.Correctness {
		return w.ViolationBudget
	}
	return w.DuplicateBudget
}

// planOptions is one option of every kind that can meet the workload's purpose:
// efficiency, each lock and the Sentinel guards; correctness, each lock's fenced twin
// and the lock-free ways (a lock alone never qualifies).
func planOptions(w *workload.Workload) []*adr.Option {
	var out []*adr.Option
	if adr.LocksBeyondFloor(w) != "" { // no lock can meet the latency budget: none is weighed
		if w.Purpose == workload.Efficiency {
			return nil
		}
		return append(out, lockFreeOptions()...)
	}
	for _, s := range planStrategies(w) {
		if w.Purpose == workload.Correctness {
			out = append(out, &adr.Option{Kind: adr.Fenced, Probe: s})
			continue
		}
		out = append(out, &adr.Option{Kind: adr.Lock, Probe: s})
	}
	if w.Purpose == workload.Efficiency {
		for _, s := range planStrategies(w) {
			out = append(out, adr.GuardOptions(s)...)
		}
		return out
	}
	return append(out, lockFreeOptions()...)
}

// lockFreeOptions are the ways to a correct update with no lock, one option each.
func lockFreeOptions() []*adr.Option {
	var out []*adr.Option
	for _, s := range adr.LockFreeStrategies {
		out = append(out, &adr.Option{Kind: adr.LockFree, Probe: s})
	}
	return out
}

// sampleVariants stands a variant in for each pattern ("*" as "0ms"), for asking
// whether the claims check them as demonstrations.
func sampleVariants(scenario string, patterns []string) []*results.Variant {
	var out []*results.Variant
	for _, p := range patterns {
		out = append(out, &results.Variant{Name: strings.ReplaceAll(p, "*", "0ms")})
	}
	return out
}

// tallyOf is the given judged trials of vs and those that broke on the side counted.
func tallyOf(vs []*results.Variant, mutex bool, pr adr.Probe) (int, int) {
	by := results.Violations
	if !mutex && pr.DataBy != "" {
		by = pr.DataBy
	}
	broke, judged := 0, 0
	for _, v := range vs {
		broke += v.Tally.Broke[by]
		judged += v.Tally.Judged
	}
	return broke, judged
}

// judgedPerVariant is the fewest judged trials any variant of scenario has in the
// given results (0 when it did not run).
func judgedPerVariant(reports []*results.Report, scenario string) int {
	var ns []int
	for _, r := range reports {
		if r != nil && r.Scenario == scenario && !boundaryReport(r) {
			for _, v := range r.Variants {
				ns = append(ns, v.Tally.Judged)
			}
		}
	}
	if len(ns) == 0 {
		return 0
	}
	return slices.Min(ns)
}

// planLabel names a planned option as the ADR does.
func planLabel(o *adr.Option) string {
	switch {
	case o.Mode != "":
		return o.Probe + " + " + o.Mode
	case o.Kind == adr.Fenced:
		return o.Probe + " + fence"
	case o.Kind == adr.LockFree:
		return o.Probe + " (no lock)"
	}
	return o.Probe
}
