package safety

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/topologies"
)

// etcdPausePastTTL is pause-past-ttl on etcd: the holder stops inside its critical
// section for longer than its lease; etcd revokes the lease and B takes the lock. As
// Jepsen found for etcd 3.4.3, consensus does not stop the overlap: the holder cannot
// know it was paused. The lock key's create revision, checked by the resource, rejects
// the stale holder's write.
type etcdPausePastTTL struct{}

func init() { Register(etcdPausePastTTL{}) }

func (etcdPausePastTTL) Name() string { return "etcd-pause-past-ttl" }
func (etcdPausePastTTL) Summary() string {
	return "an etcd lock holder pauses past its lease: two holders still; the revision fence rejects the stale write"
}
func (etcdPausePastTTL) Params() []Param {
	return []Param{
		{"ttl", "1s", "the lock's TTL (etcd grants whole seconds, at least about 1.5 election timeouts: 2 s here)"},
		{"pause", "4s", "how long the holder stops inside its critical section; must exceed the granted lease"},
	}
}

type etcdPauseVariant struct {
	*Variant
	fenced bool
}

func (s etcdPausePastTTL) Run(ctx context.Context, env *Env) (*Report, error) {
	ttl, err := env.Params.Duration("ttl", time.Second)
	if err != nil {
		return nil, err
	}
	pause, err := env.Params.Duration("pause", 4*time.Second)
	if err != nil {
		return nil, err
	}
	if ttl <= 0 {
		return nil, &ParamError{"ttl", env.Params["ttl"], "a duration > 0"}
	}
	if pause <= ttl {
		return nil, &ParamError{"pause", env.Params["pause"], "a duration longer than ttl (" + ttl.String() + ")"}
	}
	topo, err := startEtcd(ctx, env, "etcd")
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	variants := []etcdPauseVariant{
		{&Variant{Name: "etcd-unfenced", Description: "A pauses past its lease; unfenced resource: A's stale write lands after B's", Expect: ExpectBreaks, Measure: MeasureViolations}, false},
		{&Variant{Name: "etcd-revision-fenced", Description: "as etcd-unfenced, the resource checks the lock key's create revision: A's stale write is rejected", Expect: ExpectHolds, Measure: MeasureStaleAccepted}, true},
	}
	return runTrials(s, env, variants, func(v etcdPauseVariant, trial int) error {
		return s.trial(ctx, env, topo, v, trial, ttl, pause)
	})
}

func (s etcdPausePastTTL) trial(ctx context.Context, env *Env, topo topologies.Topology, v etcdPauseVariant, trial int, ttl, pause time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, pause+30*time.Second)
	defer cancel()
	rec := NewRecorder()
	res := NewResource("resource", v.fenced, rec)
	key := fmt.Sprintf("etcd-pause-past-ttl/%s/%d/%d", v.Name, env.Seed, trial)
	a, closeA, err := etcdClient(ctx, "etcd", topo, "A", rec)
	if err != nil {
		return err
	}
	defer closeA()
	b, closeB, err := etcdClient(ctx, "etcd", topo, "B", rec)
	if err != nil {
		return err
	}
	defer closeB()

	leaseA, err := a.Acquire(ctx, key, ttl)
	if err != nil {
		return fmt.Errorf("A's acquire: %w", err)
	}
	granted := leaseA.ValidUntil.Sub(leaseA.Start)
	inputs := map[string]float64{"granted_ttl_ms": ms(granted), "pause_ms": ms(pause)}
	if granted >= pause {
		v.skip(trial, inputs, "fault-not-produced", fmt.Sprintf("etcd granted a %v lease, not shorter than the %v pause", granted, pause))
		return nil
	}
	if err := a.Enter(ctx, res, leaseA); err != nil {
		return err
	}
	heal, err := inject(ctx, "client-pause", Target{Client: a, Duration: pause, Recorder: rec})
	if err != nil {
		return err
	}
	defer heal(context.Background())

	// B tries while A is away and stays inside until A has written.
	aWrote := make(chan struct{})
	bDone := make(chan struct{})
	go func() {
		defer close(bDone)
		tryCtx, cancel := context.WithTimeout(ctx, pause)
		leaseB, err := b.AcquireUntil(tryCtx, key, ttl, 20*time.Millisecond)
		cancel()
		if err != nil {
			return // never got in: A kept the lock
		}
		_ = b.Enter(ctx, res, leaseB)
		b.Write(ctx, res, leaseB)
		select {
		case <-aWrote:
		case <-ctx.Done():
		}
		b.Leave(res, leaseB)
		_ = b.Release(ctx, leaseB)
	}()
	// A's write waits at its checkpoint until the pause ends.
	_, err = a.Write(ctx, res, leaseA)
	close(aWrote)
	if err != nil {
		return err
	}
	a.Leave(res, leaseA)
	_ = a.Release(ctx, leaseA)
	<-bDone
	_, err = env.judgeTrial(s.Name(), v.Variant, trial, inputs, rec.History())
	return err
}
