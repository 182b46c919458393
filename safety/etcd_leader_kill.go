package safety

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// etcdLeaderKill kills etcd's leader right after a grant. Raft committed the lock to a
// majority before answering, so the new leader still has it: a second client is
// refused until the holder releases, and the next grant's revision fence is larger.
// The counterpart shows what the guarantee rests on: a lone member that loses its disk
// forgets the lock and starts its revisions again, so fences go backwards.
type etcdLeaderKill struct{}

func init() { Register(etcdLeaderKill{}) }

func (etcdLeaderKill) Name() string { return "etcd-leader-kill" }
func (etcdLeaderKill) Summary() string {
	return "kill etcd's leader right after a grant: no second holder, fences keep growing; a lone member's lost disk breaks both"
}
func (etcdLeaderKill) Params() []Param {
	return []Param{
		{"ttl", "10s", "the lock's TTL: long enough that only a lost lock, never expiry, lets B in"},
		{"probe", "1s", "how long B keeps trying while A holds the lock after the fault"},
	}
}

type etcdKillVariant struct {
	*Variant
	strategy string
	// fault is the nemesis: kill the leader (and restart it from disk after the
	// trial), or restart the only member without its disk.
	fault string
}

func (s etcdLeaderKill) Run(ctx context.Context, env *Env) (*Report, error) {
	ttl, err := env.Params.Duration("ttl", 10*time.Second)
	if err != nil {
		return nil, err
	}
	probe, err := env.Params.Duration("probe", time.Second)
	if err != nil {
		return nil, err
	}
	if ttl < 5*time.Second {
		return nil, &ParamError{"ttl", env.Params["ttl"], "a duration >= 5s (a leader election must fit well inside it)"}
	}
	if probe <= 0 || probe >= ttl {
		return nil, &ParamError{"probe", env.Params["probe"], "a duration > 0 and shorter than ttl (" + ttl.String() + ")"}
	}
	rep := &Report{Scenario: s.Name(), Summary: s.Summary(), Seed: env.Seed, TrialsPerVariant: env.Trials, Params: env.Params}
	variants := []etcdKillVariant{
		{&Variant{Name: "etcd-3-leader-kill", Description: "3 members; SIGKILL-equivalent of the leader right after A's grant: B is refused, B's later fence exceeds A's", Expect: ExpectHolds, Measure: MeasureViolations}, "etcd-3", "node-kill"},
		{&Variant{Name: "etcd-lone-member-disk-loss", Description: "1 member restarted without its data dir right after A's grant: B gets the lock with a smaller fence", Expect: ExpectBreaks, Measure: MeasureReissued}, "etcd", "node-restart-empty"},
	}
	for _, v := range variants {
		if err := s.runVariant(ctx, env, v, ttl, probe); err != nil {
			return nil, err
		}
		rep.Variants = append(rep.Variants, v.Variant)
	}
	return rep, nil
}

func (s etcdLeaderKill) runVariant(ctx context.Context, env *Env, v etcdKillVariant, ttl, probe time.Duration) error {
	topo, err := startEtcd(ctx, env, v.strategy)
	if err != nil {
		return err
	}
	defer topo.Close()
	for trial := 0; trial < env.Trials; trial++ {
		if err := s.trial(ctx, env, topo, v, trial, ttl, probe); err != nil {
			return fmt.Errorf("%s trial %d: %w", v.Name, trial, err)
		}
		// The next trial needs every member again: a killed one comes back from disk.
		for _, n := range topo.Nodes() {
			if !n.Running() {
				if err := n.Restart(ctx, topologies.RestartFromDisk); err != nil {
					return fmt.Errorf("%s: restart %s after trial %d: %w", v.Name, n.Name(), trial, err)
				}
			}
		}
	}
	return nil
}

func (s etcdLeaderKill) trial(ctx context.Context, env *Env, topo topologies.Topology, v etcdKillVariant, trial int, ttl, probe time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	rec := NewRecorder()
	res := NewResource("resource", true, rec)
	key := fmt.Sprintf("etcd-leader-kill/%s/%d/%d", v.Name, env.Seed, trial)
	a, closeA, err := etcdClient(ctx, v.strategy, topo, "A", rec)
	if err != nil {
		return err
	}
	defer closeA()
	b, closeB, err := etcdClient(ctx, v.strategy, topo, "B", rec)
	if err != nil {
		return err
	}
	defer closeB()

	leaseA, err := acquireThroughFaults(ctx, a, key, ttl, 30*time.Second)
	if err != nil {
		return fmt.Errorf("A's acquire: %w", err)
	}
	if err := a.Enter(ctx, res, leaseA); err != nil {
		return err
	}
	a.Write(ctx, res, leaseA)

	victims := topo.Nodes()
	if v.fault == "node-kill" {
		leader, err := etcdLeader(ctx, topo, 10*time.Second)
		if err != nil {
			v.skip(trial, nil, "fault-not-produced", "no leader to kill: "+err.Error())
			return nil
		}
		victims = []topologies.Node{leader}
	}
	if _, err := inject(ctx, v.fault, Target{Topology: topo, Nodes: victims, Recorder: rec}); err != nil {
		return err
	}
	if v.fault == "node-kill" {
		next, err := etcdLeader(ctx, topo, 20*time.Second)
		if err != nil || next.Name() == victims[0].Name() {
			v.skip(trial, nil, "fault-not-produced", fmt.Sprintf("no new leader after killing %s: %v", victims[0].Name(), err))
			return nil
		}
	}

	// B tries while A still holds its lease: a grant here is a lost lock.
	probeCtx, cancelProbe := context.WithTimeout(ctx, probe)
	if leaseB, err := acquireThroughFaults(probeCtx, b, key, ttl, probe); err == nil {
		_ = b.Enter(ctx, res, leaseB)
		b.Write(ctx, res, leaseB)
		b.Leave(res, leaseB)
		releaseSoon(ctx, b, leaseB)
	}
	cancelProbe()

	a.Leave(res, leaseA)
	releaseSoon(ctx, a, leaseA)
	// Once A let go, B's grant must carry a larger fence than A's.
	if leaseB, err := acquireThroughFaults(ctx, b, key, ttl, 30*time.Second); err == nil {
		_ = b.Enter(ctx, res, leaseB)
		b.Write(ctx, res, leaseB)
		b.Leave(res, leaseB)
		releaseSoon(ctx, b, leaseB)
	} else {
		return fmt.Errorf("B's acquire after A's release: %w", err)
	}
	_, err = env.judgeTrial(s.Name(), v.Variant, trial, nil, rec.History())
	return err
}

// acquireThroughFaults retries one recorded attempt every 20 ms, through contention
// and through errors (an election, a restarting member), for at most limit.
func acquireThroughFaults(ctx context.Context, c *Client, key string, ttl, limit time.Duration) (locks.Lease, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var last error
	for {
		// An fsynced write on three in-process members took over 2 s under a full
		// parallel test run (CI); an attempt gets longer than that.
		attempt, cancelAttempt := context.WithTimeout(ctx, 5*time.Second)
		lease, err := c.Acquire(attempt, key, ttl)
		cancelAttempt()
		if err == nil {
			return lease, nil
		}
		if errors.Is(err, ErrCrashed) {
			return lease, err
		}
		last = err
		if sleep(ctx, 20*time.Millisecond) != nil {
			return lease, fmt.Errorf("%w (last attempt: %v)", ctx.Err(), last)
		}
	}
}
