package failover

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// Every loss mode runs (wait1 and min-replicas included) on re-used deployments;
// labtest.RunScenario asserts their claims: never lost under WAIT 2. The lag drawn stays
// under 20 ms, where no variant claims a loss: whether a kill beats the replication
// stream is a rate the scheduler sways, and 2 trials at a 150 ms lag lost none under
// min-replicas in a fresh-clone run (the claim is checked on its own below).
func TestFailoverLoss(t *testing.T) {
	t.Parallel()
	rep := labtest.RunScenario(t, "failover-loss", 2, lab.Params{"modes": "none,wait1,wait2,min-replicas", "delays": "0ms", "lag-max": "10ms", "wait-timeout": "2s"})
	want := map[string]bool{"mode=none": true, "mode=none by lag": true, "mode=wait1": true, "mode=wait2": true, "mode=min-replicas": true, "mode=min-replicas by lag": true}
	for _, s := range rep.Series {
		if !want[s.Name] {
			t.Errorf("unexpected series %q", s.Name)
		}
		delete(want, s.Name)
		if len(s.Points) == 0 {
			t.Errorf("series %q has no point", s.Name)
		}
		for _, p := range s.Points {
			if p.N == 0 || p.Lo > p.Y || p.Y > p.Hi || p.Lo == p.Hi {
				t.Errorf("series %q point %+v: want K of N with an interval around it", s.Name, p)
			}
		}
	}
	for name := range want {
		t.Errorf("no series %q", name)
	}
	for _, v := range rep.Variants {
		for _, tr := range v.Trials {
			if tr.Outcome == results.Judged && !provesARead(tr) {
				t.Errorf("%s trial %d judged on %q: want what was read on the promoted master", v.Name, tr.N, tr.Proof)
			}
		}
	}
}

// A loss is claimed where it is the mechanism's: always when no replica saw the grant,
// in some trials when the kill comes at once and every replica lags 20 ms or more, never
// under WAIT 2; elsewhere the variant is a measured point.
func TestLossClaimsRideOnTheirConditions(t *testing.T) {
	none, wait2 := sentinelrig.Guard{Mode: "none"}, sentinelrig.Guard{Mode: "wait2", WaitReplicas: 2}
	minReplicas := sentinelrig.Guard{Mode: "min-replicas", MinReplicas: true}
	lagged, cut := sentinelrig.Config{LagMax: 150 * time.Millisecond}, sentinelrig.Config{LinkKill: true}
	checkClaims(t, lossClaims, []claimCase{
		{"cut off, no guard", cut, none, 0, "lost_locks every"},
		{"lagged, killed at once", lagged, none, 0, "lost_locks some"},
		{"lagged, min-replicas, killed at once", lagged, minReplicas, 0, "lost_locks some"},
		{"lagged, killed 100 ms later", lagged, none, 100 * time.Millisecond, ""},
		{"lagged under 20 ms", sentinelrig.Config{LagMax: 10 * time.Millisecond}, none, 0, ""},
		{"WAIT 2", lagged, wait2, 0, "lost_locks none"},
	})
}

// On a cluster the same: a loss claimed only for a kill at once after lags of 20 ms or
// more, none under WAIT on every replica of the key's master.
func TestKeyedLossClaimsRideOnTheirConditions(t *testing.T) {
	spec := backend.Spec{Replicas: 1}
	none, wait1 := sentinelrig.Guard{Mode: "none"}, sentinelrig.Guard{Mode: "wait1", WaitReplicas: 1}
	lagged, brief := sentinelrig.Config{LagMax: 150 * time.Millisecond}, sentinelrig.Config{LagMax: 10 * time.Millisecond}
	keyed := func(cfg sentinelrig.Config, g sentinelrig.Guard, delay time.Duration) []results.Claim {
		return keyedClaims(spec, cfg, g, delay)
	}
	checkClaims(t, keyed, []claimCase{
		{"lagged, killed at once", lagged, none, 0, "lost_locks some"},
		{"lagged under 20 ms", brief, none, 0, ""},
		{"lagged, killed 100 ms later", lagged, none, 100 * time.Millisecond, ""},
		{"WAIT on the one replica", brief, wait1, 0, "lost_locks none"},
	})
}

// claimCase is one condition of a variant and the claims it should carry, "measure want" joined.
type claimCase struct {
	name  string
	cfg   sentinelrig.Config
	g     sentinelrig.Guard
	delay time.Duration
	want  string
}

// checkClaims compares the claims claimsOf gives each case's condition with the case's.
func checkClaims(t *testing.T, claimsOf func(sentinelrig.Config, sentinelrig.Guard, time.Duration) []results.Claim,
	cases []claimCase) {
	t.Helper()
	for _, c := range cases {
		var got []string
		for _, cl := range claimsOf(c.cfg, c.g, c.delay) {
			got = append(got, string(cl.Measure)+" "+string(cl.Want))
		}
		if strings.Join(got, ", ") != c.want {
			t.Errorf("%s: claims %q, want %q", c.name, got, c.want)
		}
	}
}

func provesARead(tr results.Trial) bool {
	for _, p := range tr.Proof {
		if strings.HasPrefix(p, "read ") {
			return true
		}
	}
	return false
}

// With every replica cut off before the grant, every judged trial lost the lock (the
// Always claim), and each proved the cut from the master's replication state.
func TestFailoverLossLinkKill(t *testing.T) {
	t.Parallel()
	rep := labtest.RunScenario(t, "failover-loss", 2, lab.Params{"modes": "none", "delays": "0ms", "cut": "link-kill"})
	for v, tr := range labtest.Judged(rep) {
		cut := false
		for _, p := range tr.Proof {
			cut = cut || strings.HasPrefix(p, "before the kill")
		}
		if !cut || !provesARead(tr) {
			t.Errorf("%s trial %d judged on %q: want the cut and the read proven", v.Name, tr.N, tr.Proof)
		}
	}
}

// min-replicas-to-write where it can bite: with every replica stopped past max-lag the
// master refuses every grant (the Always claim on grants_refused), each trial proving
// the master counted no good replica and the key absent after the refusal; the
// write-up's claim reads the refusals, and the variant never declares lost_locks.
func TestFailoverLossMinReplicasStalled(t *testing.T) {
	t.Parallel()
	// As many trials as a claim takes from a variant: fewer and its verdict is not shown.
	rep := labtest.RunScenario(t, "failover-loss", results.MinJudged, lab.Params{"modes": "min-replicas-stalled"})
	if len(rep.Variants) != 1 || rep.Variants[0].Name != "min-replicas-stalled" {
		t.Fatalf("variants %v: want min-replicas-stalled alone", rep.Variants)
	}
	v := rep.Variants[0]
	for _, tr := range v.Trials {
		if tr.Outcome != results.Judged {
			continue
		}
		var noGood, refused bool
		for _, p := range tr.Proof {
			noGood = noGood || strings.Contains(p, "min_slaves_good_slaves:0")
			refused = refused || strings.Contains(p, "NOREPLICAS")
		}
		if !noGood || !refused {
			t.Errorf("trial %d judged on %q: want no good replica and the NOREPLICAS refusal proven", tr.N, tr.Proof)
		}
	}
	// A refused grant is no lock kept: the variant declares refusals, not lost locks.
	if v.Measure != results.GrantsRefused {
		t.Errorf("headline %s, want %s", v.Measure, results.GrantsRefused)
	}
	for _, c := range v.Claims {
		if c.Measure == results.LostLocks {
			t.Errorf("claim %s: a refused grant read as a lock kept", c)
		}
	}
	for _, c := range results.WriteupClaims {
		if c.Scenario != "failover-loss" || c.By != results.GrantsRefused {
			continue
		}
		if got := c.Judge([]*results.Report{rep}); got.Verdict != results.Supported {
			t.Errorf("%q: %s (%+v)", c.Claim, got.Verdict, got.Checks)
		}
	}
}

func TestFailoverLossStalledMaxLagIsWholeSeconds(t *testing.T) {
	t.Parallel()
	env := labtest.TestEnv(t, 1, lab.Params{"modes": "min-replicas-stalled", "stalled-max-lag": "1500ms"})
	s, err := lab.Lookup("failover-loss")
	if err != nil {
		t.Fatal(err)
	}
	var pe *lab.ParamError
	if _, err := lab.Run(context.Background(), s, env); !errors.As(err, &pe) || pe.Name != "stalled-max-lag" {
		t.Errorf("stalled-max-lag 1500ms: %v, want a ParamError naming it", err)
	}
}

// The resumed old master takes writes: check.SplitBrain measures the window from the
// probes, and the tally carries it.
func TestFailoverLossZombie(t *testing.T) {
	t.Parallel()
	rep := labtest.RunScenario(t, "failover-loss", 1, lab.Params{"modes": "zombie"})
	v := rep.Variants[0]
	if v.Tally.Window.N == 0 || v.Tally.Window.Max <= 0 {
		t.Errorf("zombie: no split-brain window in the tally %+v", v.Tally.Window)
	}
	if v.WindowIs == "" {
		t.Error("zombie: the window is not described")
	}
}

// A promotion not seen in time is fault_not_produced, never judged; the deployment it
// leaves mid-failover re-forms for the next trial (one deployment, so it must).
func TestFailoverLossPromotionTimeout(t *testing.T) {
	t.Parallel()
	env := labtest.TestEnv(t, 2, lab.Params{"modes": "none", "delays": "0ms", "promotion-timeout": "1ms", "deployments": "1"})
	s, err := lab.Lookup("failover-loss")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	rep, err := lab.Run(ctx, s, env)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", rep.Table())
	for _, v := range rep.Variants {
		if v.Tally.Judged != 0 || v.Tally.FaultNotProduced != v.Tally.Trials {
			t.Errorf("%s: %d judged, %d fault not produced of %d (errors %s; notes %v): want every trial fault_not_produced",
				v.Name, v.Tally.Judged, v.Tally.FaultNotProduced, v.Tally.Trials, v.Tally.ErrorsString(), v.Notes)
		}
	}
}

func TestFailoverLossParams(t *testing.T) {
	t.Parallel()
	s, err := lab.Lookup("failover-loss")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []lab.Params{
		{"modes": "none,wait3"},
		{"cut": "both"},
		{"down-after": "50ms"},
		{"failover-timeout": "500ms"},
		{"deployments": "0"},
	} {
		var pe *lab.ParamError
		if _, err := lab.Parse(s.Name(), s.Params(), bad); !errors.As(err, &pe) {
			t.Errorf("%v: %v, want a ParamError", bad, err)
		}
	}
	if _, err := lab.Parse(s.Name(), s.Params(), nil); err != nil {
		t.Errorf("defaults: %v", err)
	}
	// The sentinel deployments' variants do not name their store: two such stores in one
	// run are refused before anything starts.
	env := &lab.Env{Trials: 1, Params: lab.Params{"strategies": "sentinel,sentinel"}, Start: func(context.Context, backend.Spec) (topologies.Topology, error) {
		t.Error("two sentinel stores started a topology")
		return nil, errors.New("no servers in this test")
	}}
	var pe *lab.ParamError
	if _, err := lab.Run(context.Background(), s, env); !errors.As(err, &pe) || pe.Name != "strategies" {
		t.Errorf("strategies=sentinel,sentinel: %v, want a ParamError naming strategies", err)
	}
}

// failover-loss takes the stores the sentinel rig fits, by what their kinds declare,
// and those whose primary is the key's master; no other.
func TestFailoverLossTakesStoresByCapability(t *testing.T) {
	t.Parallel()
	strategies := labtest.Params(t, "failover-loss")[0]
	if strategies.Name != "strategies" || strategies.Default != "sentinel" {
		t.Fatalf("first param is %s=%s, want strategies=sentinel", strategies.Name, strategies.Default)
	}
	for _, ok := range []string{"sentinel", "cluster"} {
		if _, want := strategies.Parse(ok); want != "" {
			t.Errorf("%s refused: want %s", ok, want)
		}
	}
	for _, bad := range []string{"single", "wait", "redlock"} {
		if _, want := strategies.Parse(bad); want == "" {
			t.Errorf("%s taken", bad)
		}
	}
}

// drawnInputs are the inputs a trial draws from its random source (the replicas' lags)
// or is given (the delay); the rest are measured.
var drawnInputs = []string{"delay_ms", "lag_replica0_ms", "lag_replica1_ms", "lag_min_ms", "lag_max_ms"}

// Trials run three at a time, each on a deployment of its own, keep what one at a time
// gives them: their indices in order, their seeds and their drawn lags; each judged
// trial proved its fault (a replica promoted, the key read on it). Lags under 20 ms, where
// no loss is claimed (at the default 50 ms, 4 trials lost none in a fresh-clone run).
func TestFailoverLossParallelKeepsEachTrialsSeedAndDraws(t *testing.T) {
	t.Parallel()
	params := lab.Params{"modes": "none", "delays": "0ms", "lag-max": "10ms"}
	one := labtest.RunIn(t, labtest.TestEnv(t, 4, withParam(params, "parallel", "1")), "failover-loss", 4*time.Minute)
	three := labtest.RunIn(t, labtest.TestEnv(t, 4, withParam(params, "parallel", "3")), "failover-loss", 4*time.Minute)
	for i, v := range three.Variants {
		want := one.Variants[i]
		if v.Name != want.Name || len(v.Trials) != len(want.Trials) {
			t.Fatalf("parallel 3: variant %s with %d trials, one at a time %s with %d", v.Name, len(v.Trials), want.Name, len(want.Trials))
		}
		for k, tr := range v.Trials {
			w := want.Trials[k]
			if tr.N != k || tr.N != w.N || tr.Seed != w.Seed {
				t.Errorf("%s record %d: trial %d seed %d, one at a time trial %d seed %d", v.Name, k, tr.N, tr.Seed, w.N, w.Seed)
			}
			for _, in := range drawnInputs {
				if tr.Inputs[in] != w.Inputs[in] {
					t.Errorf("%s trial %d: %s %v, one at a time %v", v.Name, tr.N, in, tr.Inputs[in], w.Inputs[in])
				}
			}
			if tr.Outcome == results.Judged && (!provesARead(tr) || !provesAPromotion(tr)) {
				t.Errorf("%s trial %d judged on %q: want the promotion and the read proven", v.Name, tr.N, tr.Proof)
			}
		}
	}
}

func provesAPromotion(tr results.Trial) bool {
	for _, p := range tr.Proof {
		if strings.Contains(p, " promoted ") && !strings.HasPrefix(p, "read ") {
			return true
		}
	}
	return false
}

func withParam(p lab.Params, name, value string) lab.Params {
	out := lab.Params{name: value}
	for k, v := range p {
		out[k] = v
	}
	return out
}

// A planned failover (SENTINEL FAILOVER) asked after every replica's pause has ended:
// each judged trial proves the promotion with the old master still running, reads the
// key on the promoted replica, which holds A's lock, and measures how long the old
// master went on taking writes; the mode draws no series by kill delay under
// link-kill, which it refuses when named.
func TestFailoverLossPlanned(t *testing.T) {
	t.Parallel()
	rep := labtest.RunScenario(t, "failover-loss", 2, lab.Params{"modes": "planned", "delays": "100ms", "lag-max": "20ms"})
	if len(rep.Variants) != 1 || rep.Variants[0].Name != "planned-delay-100ms" {
		t.Fatalf("variants %v, want planned-delay-100ms alone", rep.Variants)
	}
	v := rep.Variants[0]
	if v.Tally.Judged == 0 {
		t.Fatalf("no judged trial: %v", v.Notes)
	}
	for _, tr := range v.Trials {
		if tr.Outcome != results.Judged {
			continue
		}
		planned := false
		for _, p := range tr.Proof {
			planned = planned || (strings.Contains(p, "promoted") && strings.Contains(p, "after SENTINEL FAILOVER, ") && strings.HasSuffix(p, "still running"))
		}
		if !planned || !provesARead(tr) || tr.Counts[results.LostLocks] != 0 {
			t.Errorf("trial %d judged on %q, %d lost: want the planned promotion and the read proven, the lock kept (every pause had ended)", tr.N, tr.Proof, tr.Counts[results.LostLocks])
		}
		// The first probe goes right after SENTINEL FAILOVER's reply, before sentinel's
		// timer has begun the handover: the old master takes it, and the window opens.
		if tr.Inputs["probes_accepted"] < 1 || tr.Counts[results.SplitBrainWindow] != 1 {
			t.Errorf("trial %d: %v probes, %v accepted, window counted %d: want the old master probed from the request on",
				tr.N, tr.Inputs["probes"], tr.Inputs["probes_accepted"], tr.Counts[results.SplitBrainWindow])
		}
	}
	if v.WindowIs == "" || v.Tally.Window.N == 0 {
		t.Errorf("the planned failover's window is not described or not tallied: %q, %+v", v.WindowIs, v.Tally.Window)
	}
	s, _ := lab.Lookup("failover-loss")
	env := &lab.Env{Trials: 1, Params: lab.Params{"modes": "planned", "cut": "link-kill"}}
	if _, err := lab.Run(context.Background(), s, env); !errors.As(err, new(*lab.ParamError)) {
		t.Errorf("planned under link-kill: %v, want a ParamError", err)
	}
}

// A sentinel's refusal is no fault produced; any other failure of the request is an
// error of the nemesis, never counted as a refusal.
func TestARefusedPlannedFailoverIsNoFault(t *testing.T) {
	t.Parallel()
	for msg, refused := range map[string]bool{
		"SENTINEL FAILOVER lockbench on sentinel-0: NOGOODSLAVE No suitable replica to promote": true,
		"SENTINEL FAILOVER lockbench on sentinel-0: INPROG Failover already in progress":        true,
		"SENTINEL FAILOVER lockbench on sentinel-0: dial tcp 127.0.0.1:1: connection refused":   false,
	} {
		if got := refusedFailover(errors.New(msg)); got != refused {
			t.Errorf("%q: refused %v, want %v", msg, got, refused)
		}
	}
}

// The WAITAOF guards run on Valkey deployments of their own, an AOF on every data node:
// a grant is judged only once WAITAOF counted the fsyncs it demands (a replica's, and
// for waitaof-both the master's), so a judged trial shows the guard ran there; on
// Redis 7.0, or replicas without an AOF, none would be granted.
func TestFailoverLossWaitAOFGuardsRunOnValkeyWithAnAOF(t *testing.T) {
	t.Parallel()
	testenv.RequireValkey(t)
	rep := labtest.RunScenario(t, "failover-loss", 2, lab.Params{"modes": "waitaof-replica,waitaof-both",
		"delays": "0ms", "wait-timeout": "2s"})
	if len(rep.Variants) != 2 {
		t.Fatalf("%d variants, want waitaof-replica and waitaof-both at 0 ms", len(rep.Variants))
	}
	for _, v := range rep.Variants {
		if !strings.Contains(v.Description, "then WAITAOF") || !strings.Contains(v.Description, "appendfsync always") {
			t.Errorf("%s: %q: want the WAITAOF grant on a durable deployment described", v.Name, v.Description)
		}
	}
}
