package safety

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// fenceRegression: the fencing counter is an INCR on the same sentinel-managed Redis
// as the lock. Writes the replicas never applied vanish in a failover, the counter
// with them, and the new master hands out tokens again. Both harms are counted: a
// fenced resource that saw the lost tokens refuses the honest new holder, and two
// fenced resources that saw different writes answer the same holder differently.
type fenceRegression struct{}

func init() { Register(fenceRegression{}) }

func (fenceRegression) Name() string { return "fence-regression" }
func (fenceRegression) Summary() string {
	return "an INCR fencing counter on the locking Redis goes backwards after a failover: tokens reissued, the honest new holder refused, two fenced resources diverge"
}
func (fenceRegression) Params() []Param {
	return []Param{
		{"cycles", "3", "lock cycles in each phase (before the cut, during it, after the failover)"},
		{"promotion-timeout", "15s", "how long to wait for a new master before counting the trial as fault-not-produced"},
	}
}

type fenceVariant struct {
	*Variant
	cut bool // cut replication before the last phase of the old master
}

func (s fenceRegression) Run(ctx context.Context, env *Env) (*Report, error) {
	cycles, err := env.Params.Int("cycles", 3, 1, 1000)
	if err != nil {
		return nil, err
	}
	promotion, err := env.Params.Duration("promotion-timeout", 15*time.Second)
	if err != nil {
		return nil, err
	}
	if promotion <= 0 {
		return nil, &ParamError{"promotion-timeout", env.Params["promotion-timeout"], "a duration > 0"}
	}
	variants := []fenceVariant{
		{&Variant{Name: "replication-cut", Expect: ExpectBreaks, Measure: MeasureReissued,
			Description: "replicas stop applying the stream (CLIENT PAUSE) while A locks and fences; the master is SIGKILLed; B locks on the promoted replica"}, true},
		{&Variant{Name: "replicated", Expect: ExpectHolds, Measure: MeasureReissued,
			Description: "control: the same, but WAIT 2 confirms every write before the master is SIGKILLed"}, false},
	}
	return runTrials(s, env, variants, func(v fenceVariant, trial int) error {
		return s.trial(ctx, env, v, trial, cycles, promotion)
	})
}

// fencedCycle locks, enters r1, writes to each of writeTo, leaves and releases. It
// returns the answers of writeTo in order.
func fencedCycle(ctx context.Context, c *Client, key string, r1 *Resource, writeTo ...*Resource) ([]bool, error) {
	lease, err := c.Acquire(ctx, key, 10*time.Second)
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
	if err := c.Release(ctx, lease); err != nil {
		return nil, fmt.Errorf("%s's release: %w", c.ID, err)
	}
	return answers, nil
}

func (s fenceRegression) trial(ctx context.Context, env *Env, v fenceVariant, trial, cycles int, promotion time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	topo, err := env.start(ctx, topologies.Spec{Kind: topologies.Sentinel, Replicas: 2, DownAfter: 500 * time.Millisecond, FailoverTimeout: 3 * time.Second})
	if err != nil {
		return err
	}
	defer topo.Close()
	master := topo.Masters()[0]
	rec := NewRecorder()
	r1 := NewResource("resource-1", true, rec)
	r2 := NewResource("resource-2", true, rec) // a second store the holders update last
	key := fmt.Sprintf("fence-regression:%d:%d", env.Seed, trial)

	fenced := func(addr string) (*fencedLocker, error) {
		l, err := locks.NewSingle(ctx, addr, locks.RedisOptions{})
		if err != nil {
			return nil, err
		}
		return &fencedLocker{Locker: l, counter: plainClient(addr)}, nil
	}
	la, err := fenced(master.Addr())
	if err != nil {
		return err
	}
	defer la.Close()
	a := NewClient("A", la, rec)
	for i := 0; i < cycles; i++ {
		if _, err := fencedCycle(ctx, a, key, r1, r1, r2); err != nil {
			return err
		}
	}
	if err := waitReplicas(ctx, master.Addr(), 2); err != nil {
		return err
	}
	if v.cut {
		if _, err := inject(ctx, "replication-pause", Target{Topology: topo, Duration: 2 * time.Second, Recorder: rec}); err != nil {
			return err
		}
	}
	// A's last cycles reach resource-1 only: A dies before updating resource-2.
	for i := 0; i < cycles; i++ {
		if _, err := fencedCycle(ctx, a, key, r1, r1); err != nil {
			return err
		}
	}
	if !v.cut {
		if err := waitReplicas(ctx, master.Addr(), 2); err != nil {
			return err
		}
	}
	if _, err := inject(ctx, "node-kill", Target{Nodes: []topologies.Node{master}, Recorder: rec}); err != nil {
		return err
	}
	promoCtx, promoCancel := context.WithTimeout(ctx, promotion)
	newMaster, err := topologies.WaitForNewMaster(promoCtx, topologies.Addrs(topo.Sentinels()), topo.Spec().MasterName, master.Addr())
	promoCancel()
	if err != nil {
		v.skip(trial, nil, "fault-not-produced", err.Error())
		return nil
	}
	lb, err := fenced(newMaster)
	if err != nil {
		return err
	}
	defer lb.Close()
	b := NewClient("B", lb, rec)
	honestRejected, diverged := 0, 0
	for i := 0; i < cycles; i++ {
		answers, err := fencedCycle(ctx, b, key, r1, r1, r2)
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

// waitReplicas blocks until n replicas acknowledged every write so far on addr.
func waitReplicas(ctx context.Context, addr string, n int) error {
	c := plainClient(addr)
	defer c.Close()
	acked, err := c.Do(ctx, "WAIT", n, 2000).Int()
	if err != nil {
		return fmt.Errorf("WAIT %d: %w", n, err)
	}
	if acked < n {
		return fmt.Errorf("WAIT %d: only %d replicas acknowledged in 2 s", n, acked)
	}
	return nil
}
