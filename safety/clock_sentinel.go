package safety

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// sentinelClockSkew: since Redis 7 a TTL replicates as an absolute time (SET ... PXAT),
// so a promoted replica expires the lock key by its own wall clock. With the replicas'
// clocks ahead of the master's by more than what is left of the TTL, the key is gone
// the moment a replica is promoted, and B locks while A still believes it holds; a
// clock behind only keeps the key longer. The key is on both replicas (WAIT 2) before
// the master is killed, so replication loss plays no part. Process provider only:
// miniredis has no replication.
type sentinelClockSkew struct{}

func init() { Register(sentinelClockSkew{}) }

func (sentinelClockSkew) Name() string { return "sentinel-clock-skew" }
func (sentinelClockSkew) Summary() string {
	return "the replicas' clocks differ from the master's; the master dies after a replicated grant: a replica ahead expires the key at promotion, B locks"
}
func (sentinelClockSkew) Params() []Param {
	return []Param{
		{"ttl", "20s", "the lock's TTL (must outlast the failover)"},
		{"offset", "30s", "how far the replicas' clocks are ahead (and, in replica-behind, behind)"},
		{"promotion-timeout", "20s", "how long to wait for sentinels to promote a replica"},
	}
}

func (s sentinelClockSkew) Run(ctx context.Context, env *Env) (*Report, error) {
	ttl, err := env.Params.Duration("ttl", 20*time.Second)
	if err != nil {
		return nil, err
	}
	if ttl < 5*time.Second {
		return nil, &ParamError{"ttl", env.Params["ttl"], "a duration >= 5s (a failover takes about 2 s here)"}
	}
	offset, err := env.Params.Duration("offset", 30*time.Second)
	if err != nil {
		return nil, err
	}
	promotion, err := env.Params.Duration("promotion-timeout", 20*time.Second)
	if err != nil {
		return nil, err
	}
	rep := &Report{Scenario: s.Name(), Summary: s.Summary(), Seed: env.Seed, TrialsPerVariant: env.Trials, Params: env.Params}
	ahead := ExpectMeasured // the key may survive if offset < TTL minus the failover time
	if offset >= ttl {
		ahead = ExpectBreaks
	}
	for _, c := range []struct {
		name   string
		offset time.Duration
		expect Expectation
	}{
		{"replica-ahead", offset, ahead},
		{"replica-behind", -offset, ExpectHolds},
		{"true-clocks", 0, ExpectHolds},
	} {
		v := &Variant{Name: c.name, Expect: c.expect, Measure: MeasureViolations, Params: map[string]string{"replica_offset": c.offset.String(), "ttl": ttl.String()},
			Description: fmt.Sprintf("both replicas' clocks are %v from the master's; A locks (TTL %v), WAIT 2, the master is SIGKILLed; B tries on the promoted replica", c.offset, ttl)}
		for trial := 0; trial < env.Trials; trial++ {
			if err := s.trial(ctx, env, v, trial, ttl, c.offset, promotion); err != nil {
				return nil, fmt.Errorf("%s trial %d: %w", v.Name, trial, err)
			}
		}
		rep.Variants = append(rep.Variants, v)
	}
	return rep, nil
}

func (s sentinelClockSkew) trial(ctx context.Context, env *Env, v *Variant, trial int, ttl, offset, promotion time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute+ttl)
	defer cancel()
	spec := topologies.Spec{Kind: topologies.Sentinel, Replicas: 2, DownAfter: time.Second, FailoverTimeout: 3 * time.Second}
	if offset != 0 {
		spec.Clocks = map[string]clocks.Model{"replica-0": {Offset: offset}, "replica-1": {Offset: offset}}
	}
	topo, err := env.start(ctx, spec)
	if err != nil {
		return err
	}
	defer topo.Close()
	master := topo.Masters()[0]
	rec := NewRecorder()
	res := NewResource("resource", false, rec)
	key := fmt.Sprintf("%s:%s:%d:%d", s.Name(), v.Name, env.Seed, trial)
	inputs := map[string]float64{"replica_offset_ms": ms(offset)}
	locker, err := locks.NewSentinel(ctx, topologies.Addrs(topo.Sentinels()), locks.SentinelOptions{MasterName: topo.Spec().MasterName})
	if err != nil {
		return err
	}
	defer locker.Close()
	a := NewClient("A", locker, rec)
	lease, err := a.Acquire(ctx, key, ttl)
	if err != nil {
		v.skip(trial, inputs, "not-granted", err.Error())
		return nil
	}
	// Both replicas must have the key: then only their clocks can lose it.
	c := plainClient(master.Addr())
	acked, err := c.Do(ctx, "WAIT", 2, 5000).Int()
	c.Close()
	if err != nil || acked < 2 {
		v.skip(trial, inputs, "fault-not-produced", fmt.Sprintf("WAIT 2: %d replicas acknowledged (%v)", acked, err))
		return nil
	}
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	if _, err := inject(ctx, "node-kill", Target{Nodes: []topologies.Node{master}, Recorder: rec}); err != nil {
		return err
	}
	promoCtx, promoCancel := context.WithTimeout(ctx, promotion)
	newMaster, err := topologies.WaitForNewMaster(promoCtx, topologies.Addrs(topo.Sentinels()), topo.Spec().MasterName, master.Addr())
	promoCancel()
	if err != nil {
		v.skip(trial, inputs, "fault-not-produced", err.Error())
		return nil
	}
	if err := observeKey(ctx, rec, newMaster, key); err != nil {
		return err
	}
	lb, err := locks.NewSingle(ctx, newMaster, locks.RedisOptions{})
	if err != nil {
		return err
	}
	defer lb.Close()
	b := NewClient("B", lb, rec)
	tryCtx, tryCancel := context.WithTimeout(ctx, time.Second)
	leaseB, err := b.AcquireUntil(tryCtx, key, ttl, 20*time.Millisecond)
	tryCancel()
	if err == nil {
		v.SecondGranted++
		_ = b.Enter(ctx, res, leaseB)
		_, _ = b.Write(ctx, res, leaseB)
		b.Leave(res, leaseB)
	} else if !errors.Is(err, locks.ErrNotAcquired) && !errors.Is(err, context.DeadlineExceeded) {
		v.Notes = appendNote(v.Notes, fmt.Sprintf("trial %d: B failed for a reason other than contention: %v", trial, err))
	}
	if time.Now().After(lease.ValidUntil) {
		v.Notes = appendNote(v.Notes, fmt.Sprintf("trial %d: A's lease ended before B was done: raise ttl", trial))
	}
	a.Leave(res, lease) // A stops here, well inside its lease
	_, err = env.judgeTrial(s.Name(), v, trial, inputs, rec.History())
	return err
}
