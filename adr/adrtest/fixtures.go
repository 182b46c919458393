// Package adrtest writes synthetic inputs for the adr tests: a benchmark folder from
// report/synth and a safety results.json built with safety/results' own types. The
// numbers are invented; only their shape is that of real runs.
package adrtest

import (
	"fmt"
	"sync"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/report/synth"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/results"
)

// deployments are what the fixtures pretend each kind ran on, as the runner records
// a deployment.
var deployments = map[backend.Kind]string{
	"single":     "single via process: 1 master(s), 0 replica(s), 0 sentinel(s)",
	"replicated": "replicated via process: 1 master(s), 2 replica(s), 0 sentinel(s)",
	"redlock":    "redlock via process: 5 master(s), 0 replica(s), 0 sentinel(s)",
	"etcd":       "etcd via etcd-process: 1 master(s), 0 replica(s), 0 sentinel(s)",
	"cluster":    "cluster via rediscluster-process: 3 master(s), 3 replica(s), 0 sentinel(s)",
	"postgres":   "postgres via postgres-process: 1 master(s), 0 replica(s), 0 sentinel(s)",
}

// keyedStore is the store whose keyed failover-loss runs Reports invents; its
// strategies are those whose store declared them its guards.
const keyedStore = "cluster"

// WriteBench writes a small synthetic `lockbench run` folder (single, wait, redlock,
// redlock-failfast, etcd; open loop for single and redlock; closed loop for the keyed
// store's strategies, cluster and cluster-wait) with deployments recorded as the
// runner records them. The test binary registers the stores (backends/all).
func WriteBench(dir string) error {
	run, err := benchRun()
	if err != nil {
		return err
	}
	own := *run // WriteRun stamps the schema version: tests side by side share run
	return resultsdir.WriteRun(dir, &own)
}

// benchRun is WriteBench's run, generated once a test binary: the full matrix it draws
// the keyed store's cells from was most of the adr tests' CPU, once for every folder.
var benchRun = sync.OnceValues(generateBench)

func generateBench() (*resultsdir.Run, error) {
	run := synth.Generate(synth.Options{Stores: linked.Catalog(), Seed: 1, Small: true})
	// The keyed store's cells come from the full matrix, at the small one's client counts.
	for _, c := range synth.Generate(synth.Options{Stores: linked.Catalog(), Seed: 1}).Cells {
		st, ok := linked.Catalog().StrategyOf(c.Strategy)
		if ok && st.KeyedFailover != nil && st.KeyedFailover.Store == keyedStore && c.Clients <= 8 {
			run.Cells = append(run.Cells, c)
		}
	}
	// A lock-free way priced by an update cell: one closed-loop client on one row.
	for _, c := range run.Cells {
		if c.Strategy == "single" && c.Clients == 1 && c.Load.Mode == "closed" {
			c.Name = "strategy=cas-version/clients=1/keys=1/hold=0s/ttl=10s/net=none/load=closed/workload=update/guard=none"
			c.Strategy, c.Workload = "cas-version", resultsdir.WorkloadUpdate
			c.Latency = map[string]resultsdir.Summary{resultsdir.MetricUpdate: c.Latency[resultsdir.MetricAcquire]}
			c.Update = &resultsdir.UpdateStats{UpdatesPerSecond: c.CyclesPerSecond}
			run.Cells = append(run.Cells, c)
			break
		}
	}
	run.Environment.Topologies = map[string]string{}
	for _, c := range run.Cells {
		st, ok := linked.Catalog().StrategyOf(c.Strategy)
		if !ok {
			return run, fmt.Errorf("adrtest: no store declares %s (import backends/all in the test)", c.Strategy)
		}
		run.Environment.Topologies[c.Strategy] = deployments[st.Kind()]
	}
	return run, nil
}

// trial is one judged trial with its counts and inputs.
func trial(n int, counts map[results.Measure]int, inputs map[string]float64) results.Trial {
	return results.Trial{N: n, Seed: uint64(n), Outcome: results.Judged, Counts: counts, Inputs: inputs,
		Proof: []string{"synthetic"}}
}

// variant adds n judged trials, the first k with each of broke's measures at 1.
func variant(name string, params map[string]string, measure results.Measure, n, k int, broke []results.Measure,
	inputs func(i int) map[string]float64) *results.Variant {
	v := &results.Variant{Name: name, Params: params, Measure: measure, Description: "synthetic " + name}
	for i := 0; i < n; i++ {
		counts := map[results.Measure]int{}
		for _, m := range broke {
			counts[m] = 0
			if i < k {
				counts[m] = 1
			}
		}
		var in map[string]float64
		if inputs != nil {
			in = inputs(i)
		}
		v.Add(trial(i, counts, in))
	}
	// A scenario declares what each variant counts, as its claims: a measure no claim
	// names reads 0 on every variant and would pass for "never" (results.unmeasured).
	for _, m := range broke {
		switch {
		case k >= n:
			v.Claims = append(v.Claims, results.Always(m))
		case k == 0:
			v.Claims = append(v.Claims, results.Holds(m))
		default:
			v.Claims = append(v.Claims, results.Breaks(m))
		}
	}
	return v
}

// Reports are the synthetic safety reports: failover-loss (none, wait1, wait2 at two
// delays, with drawn lags; none and wait1 on a cluster), pause-past-ttl on single and
// etcd with fenced variants, redlock-restart and redlock-quorum, etcd-leader-kill's lone member, the two
// clock scenarios, a redlock-clock-jump sweep and replication-lag at three rates.
func Reports() []*results.Report {
	mutex := []results.Measure{results.Violations}
	lag := func(delay float64) func(int) map[string]float64 {
		return func(i int) map[string]float64 {
			return map[string]float64{"delay_ms": delay, "lag_promoted_ms": float64((i * 7) % 50)}
		}
	}
	fl := &results.Report{Scenario: "failover-loss", Complete: true, Seed: 1, TrialsPerVariant: 20}
	for _, m := range []struct {
		mode   string
		broken [2]int
	}{{"none", [2]int{18, 8}}, {"wait1", [2]int{2, 0}}, {"wait2", [2]int{0, 0}}} {
		for i, d := range []float64{0, 50} {
			fl.Variants = append(fl.Variants,
				variant(fmt.Sprintf("%s-delay-%gms", m.mode, d), nil, results.LostLocks, 20, m.broken[i],
					[]results.Measure{results.Violations, results.LostLocks}, lag(d)))
		}
	}
	// The same scenario on a Redis Cluster (--param strategies=cluster): the key's
	// master killed, no guard or WAIT 1.
	for _, m := range []struct {
		mode   string
		broken [2]int
	}{{"none", [2]int{20, 16}}, {"wait1", [2]int{0, 0}}} {
		for i, d := range []float64{0, 50} {
			params := map[string]string{"strategy": keyedStore, "mode": m.mode, "delay": fmt.Sprintf("%gms", d)}
			fl.Variants = append(fl.Variants,
				variant(fmt.Sprintf("%s/%s-delay-%gms", keyedStore, m.mode, d), params, results.LostLocks, 20, m.broken[i],
					[]results.Measure{results.Violations, results.LostLocks}, lag(d)))
		}
	}
	pp := &results.Report{Scenario: "pause-past-ttl", Complete: true, Seed: 1, TrialsPerVariant: 10}
	for _, s := range []struct{ strategy, fence string }{{"single", "INCR on the lock's Redis"}, {"etcd",
		"the key's create revision"}} {
		params := map[string]string{"strategy": s.strategy, "fence": s.fence}
		for _, suffix := range []string{"no-watchdog", "watchdog"} {
			pp.Variants = append(pp.Variants,
				variant(s.strategy+"/"+suffix, params, results.Violations, 10, 10,
					[]results.Measure{results.Violations, results.StaleAccepted}, nil))
		}
		for _, suffix := range []string{"no-watchdog-fenced", "watchdog-fenced"} {
			v := variant(s.strategy+"/"+suffix, params, results.StaleAccepted, 10, 10,
				[]results.Measure{results.Violations, results.StaleRejected}, nil)
			pp.Variants = append(pp.Variants, v)
		}
	}
	rr := &results.Report{Scenario: "redlock-restart", Complete: true, Seed: 1, TrialsPerVariant: 10,
		Variants: []*results.Variant{
			variant("redlock/restart-empty", map[string]string{"strategy": "redlock"}, results.Violations, 10, 10, mutex, nil),
			variant("redlock/appendfsync-always", map[string]string{"strategy": "redlock"}, results.Violations, 10, 0, mutex,
				nil),
		}}
	// redlock-quorum: redlock's grants on exactly a quorum, 0 of 20 alone and 8 of 20
	// with 4 racing; a restart of a node holding the key broke where the grant sat on
	// exactly a quorum (9 of 20 racing), as the model's rule says.
	quorum := []results.Measure{results.QuorumOnly, results.Violations}
	rq := &results.Report{Scenario: "redlock-quorum", Complete: true, Seed: 1, TrialsPerVariant: 20}
	for _, c := range []struct {
		contention, clients string
		share, broke        int
	}{{"uncontended", "1", 0, 0}, {"contended-4", "4", 8, 9}} {
		params := map[string]string{"strategy": "redlock", "clients": c.clients}
		rq.Variants = append(rq.Variants,
			variant("redlock/"+c.contention+"/share", params, results.QuorumOnly, 20, c.share,
				[]results.Measure{results.QuorumOnly}, nil),
			variant("redlock/"+c.contention+"/restart-empty", params, results.Violations, 20, c.broke, quorum, nil))
	}
	ek := &results.Report{Scenario: "etcd-leader-kill", Complete: true, Seed: 1, TrialsPerVariant: 10,
		Variants: []*results.Variant{
			variant("etcd-lone-member-disk-loss", nil, results.ReissuedTokens, 10, 10,
				[]results.Measure{results.ReissuedTokens, results.Violations}, nil),
		}}
	sk := &results.Report{Scenario: "single-clock-skew", Complete: true, Seed: 1, TrialsPerVariant: 10,
		Variants: []*results.Variant{
			variant("jump-forward", nil, results.Violations, 10, 10, mutex, nil),
		}}
	kl := &results.Report{Scenario: "redlock-kleppmann", Complete: true, Seed: 1, TrialsPerVariant: 10,
		Variants: []*results.Variant{
			variant("jump", nil, results.Violations, 10, 10, mutex, nil),
		}}
	cj := &results.Report{Scenario: "redlock-clock-jump", Complete: true, Seed: 1, TrialsPerVariant: 4}
	for _, k := range []int{1, 2, 3} {
		for _, j := range []string{"2ms", "30ms", "300ms"} {
			broken := 0
			if k == 3 && j != "2ms" {
				broken = 4
			}
			params := map[string]string{"strategy": "redlock", "k": fmt.Sprint(k), "jump": j, "ttl": "1s"}
			cj.Variants = append(cj.Variants,
				variant(fmt.Sprintf("k=%d/J=%s", k, j), params, results.Violations, 4, broken, mutex,
					func(int) map[string]float64 { return map[string]float64{"a_acquire_ms": 2, "b_attempt_ms": 1} }))
		}
	}
	lu := &results.Report{Scenario: "lost-updates", Complete: true, Seed: 1, TrialsPerVariant: 10,
		Variants: []*results.Variant{
			variant("pause/cas-version", map[string]string{"strategy": "cas-version"}, results.LostUpdates, 10, 0,
				[]results.Measure{results.LostUpdates}, nil),
			variant("pause/unique-key", map[string]string{"strategy": "unique-key"}, results.LostUpdates, 10, 0,
				[]results.Measure{results.LostUpdates}, nil),
			// A scripted redelivery: applied twice by every writer but a unique key.
			variant("redelivery/cas-version", map[string]string{"strategy": "cas-version"}, results.Duplicates, 10, 10,
				[]results.Measure{results.Duplicates}, nil),
			variant("redelivery/unique-key", map[string]string{"strategy": "unique-key"}, results.Duplicates, 10, 0,
				[]results.Measure{results.Duplicates}, nil),
		}}
	// replication-lag: each trial's background rate and its probes' lags on two
	// replicas, longer under more load.
	rl := &results.Report{Scenario: "replication-lag", Complete: true, Seed: 1, TrialsPerVariant: 5}
	for _, r := range []float64{0, 1000, 5000} {
		rl.Variants = append(rl.Variants,
			variant(fmt.Sprintf("rate-%g", r), map[string]string{"rate": fmt.Sprint(r)}, results.ProbesUnseen, 5, 0,
				[]results.Measure{results.ProbesUnseen}, func(i int) map[string]float64 {
					in := map[string]float64{"load_per_s": r * (0.98 + 0.01*float64(i))}
					for p := 0; p < 20; p++ {
						in[fmt.Sprintf("lag_ms_r0_p%03d", p)] = 0.05 + r/5000*float64((p*3+i)%10)/10
						in[fmt.Sprintf("lag_ms_r1_p%03d", p)] = 0.05 + r/5000*float64((p*7+i)%10)/20
					}
					return in
				}))
	}
	return []*results.Report{fl, pp, rr, rq, ek, sk, kl, cj, lu, rl}
}

// WriteSafety writes the synthetic reports as a `lockbench safety` folder.
func WriteSafety(dir string) error {
	return results.Write(dir, results.Results{Complete: true,
		Command: &results.Command{Scenarios: []string{"synthetic"}, Trials: 20, Seed: 1}, Reports: Reports()})
}
