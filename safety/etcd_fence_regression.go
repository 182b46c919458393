package safety

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/topologies"
)

// etcdFenceRegression is fence-regression run against etcd-3: A locks and writes with
// revision fences, the leader dies, B locks on the new leader. With Redis the promoted
// replica may lack A's last writes and hand out old tokens again; raft elects only a
// member holding every committed entry, so B's fences exceed A's even when a follower
// lagged behind until just before the kill.
type etcdFenceRegression struct{}

func init() { Register(etcdFenceRegression{}) }

func (etcdFenceRegression) Name() string { return "etcd-fence-regression" }
func (etcdFenceRegression) Summary() string {
	return "fence-regression on etcd-3: after the leader dies, revision fences keep growing, no honest holder is refused, fenced resources agree"
}
func (etcdFenceRegression) Params() []Param {
	return []Param{
		{"cycles", "3", "lock cycles in each phase (before the fault, during it, after the new leader)"},
		{"election-timeout", "20s", "how long to wait for a new leader before counting the trial as fault-not-produced"},
	}
}

type etcdFenceVariant struct {
	*Variant
	lag bool // pause a follower during A's last cycles and resume it just before the kill
}

func (s etcdFenceRegression) Run(ctx context.Context, env *Env) (*Report, error) {
	cycles, err := env.Params.Int("cycles", 3, 1, 1000)
	if err != nil {
		return nil, err
	}
	election, err := env.Params.Duration("election-timeout", 20*time.Second)
	if err != nil {
		return nil, err
	}
	if election <= 0 {
		return nil, &ParamError{"election-timeout", env.Params["election-timeout"], "a duration > 0"}
	}
	variants := []etcdFenceVariant{
		{&Variant{Name: "etcd-3-leader-kill", Expect: ExpectHolds, Measure: MeasureReissued,
			Description: "A's last cycles reach resource-1 only; the leader is killed; B locks on the new leader"}, false},
		{&Variant{Name: "etcd-3-lagging-follower", Expect: ExpectHolds, Measure: MeasureReissued,
			Description: "as etcd-3-leader-kill, and a follower is paused during A's last cycles and resumed just before the kill"}, true},
	}
	return runTrials(s, env, variants, func(v etcdFenceVariant, trial int) error {
		return s.trial(ctx, env, v, trial, cycles, election)
	})
}

// etcdFencedCycle locks (through elections), enters r1, writes to each of writeTo,
// leaves and releases; it returns the answers of writeTo in order.
func etcdFencedCycle(ctx context.Context, c *Client, key string, r1 *Resource, writeTo ...*Resource) ([]bool, error) {
	lease, err := acquireThroughFaults(ctx, c, key, 10*time.Second, time.Minute)
	if err != nil {
		return nil, fmt.Errorf("%s's acquire: %w", c.ID, err)
	}
	if err := c.Enter(ctx, r1, lease); err != nil {
		return nil, err
	}
	var answers []bool
	for _, r := range writeTo {
		ok, err := c.Write(ctx, r, lease)
		if err != nil {
			return nil, err
		}
		answers = append(answers, ok)
	}
	c.Leave(r1, lease)
	releaseSoon(ctx, c, lease)
	return answers, nil
}

func (s etcdFenceRegression) trial(ctx context.Context, env *Env, v etcdFenceVariant, trial, cycles int, election time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	topo, err := startEtcd(ctx, env, "etcd-3")
	if err != nil {
		return err
	}
	defer topo.Close()
	rec := NewRecorder()
	r1 := NewResource("resource-1", true, rec)
	r2 := NewResource("resource-2", true, rec) // a second store the holders update last
	key := fmt.Sprintf("etcd-fence-regression/%s/%d/%d", v.Name, env.Seed, trial)
	a, closeA, err := etcdClient(ctx, "etcd-3", topo, "A", rec)
	if err != nil {
		return err
	}
	defer closeA()
	for i := 0; i < cycles; i++ {
		if _, err := etcdFencedCycle(ctx, a, key, r1, r1, r2); err != nil {
			return err
		}
	}
	leader, err := etcdLeader(ctx, topo, election)
	if err != nil {
		v.skip(trial, nil, "fault-not-produced", "no leader: "+err.Error())
		return nil
	}
	heal := noHeal
	if v.lag {
		follower := otherNode(topo, leader)
		if heal, err = inject(ctx, "node-pause", Target{Topology: topo, Nodes: []topologies.Node{follower}, Recorder: rec}); err != nil {
			return err
		}
		defer heal(context.Background())
	}
	// A's last cycles reach resource-1 only: A dies before updating resource-2.
	for i := 0; i < cycles; i++ {
		if _, err := etcdFencedCycle(ctx, a, key, r1, r1); err != nil {
			return err
		}
	}
	if err := heal(ctx); err != nil {
		return err
	}
	if _, err := inject(ctx, "node-kill", Target{Topology: topo, Nodes: []topologies.Node{leader}, Recorder: rec}); err != nil {
		return err
	}
	next, err := etcdLeader(ctx, topo, election)
	if err != nil || next.Name() == leader.Name() {
		v.skip(trial, nil, "fault-not-produced", fmt.Sprintf("no new leader after killing %s: %v", leader.Name(), err))
		return nil
	}
	b, closeB, err := etcdClient(ctx, "etcd-3", topo, "B", rec)
	if err != nil {
		return err
	}
	defer closeB()
	honestRejected, diverged := 0, 0
	for i := 0; i < cycles; i++ {
		answers, err := etcdFencedCycle(ctx, b, key, r1, r1, r2)
		if err != nil {
			return err
		}
		if !answers[0] {
			honestRejected++
		}
		if answers[0] != answers[1] {
			diverged++
		}
	}
	v.HonestRejected += honestRejected
	v.Diverged += diverged
	_, err = env.judgeTrial(s.Name(), v.Variant, trial, map[string]float64{"honest_rejected": float64(honestRejected), "diverged": float64(diverged)}, rec.History())
	return err
}

// otherNode returns a node of topo that is not n.
func otherNode(topo topologies.Topology, n topologies.Node) topologies.Node {
	for _, o := range topo.Nodes() {
		if o.Name() != n.Name() {
			return o
		}
	}
	return nil
}
