package safety

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// redlockRestart: A holds a Redlock on exactly 3 of 5 nodes (two are down when it
// locks). One of A's three restarts with no data right after the grant and the two
// come back empty: B finds 3 free nodes and wins a majority while A still holds. A
// restart delayed past the TTL, appendfsync always, or an extend that re-creates
// missing keys (WithSetNXOnExtend) each change what happens; the run measures it.
type redlockRestart struct{}

func init() { Register(redlockRestart{}) }

func (redlockRestart) Name() string { return "redlock-restart" }
func (redlockRestart) Summary() string {
	return "a Redlock node restarts empty right after a grant: a second client wins a majority; delayed restart, appendfsync always or WithSetNXOnExtend change it"
}
func (redlockRestart) Params() []Param {
	return []Param{{"ttl", "2s", "the lock's TTL (the delayed restart waits this long)"}}
}

type redlockVariant struct {
	*Variant
	fsync    bool // appendfsync always, restart from disk
	delayed  bool // the node stays down for the TTL
	extend   bool // A extends once the nodes are back, before B tries
	setnxExt bool // ... with WithSetNXOnExtend
}

func (s redlockRestart) Run(ctx context.Context, env *Env) (*Report, error) {
	ttl, err := env.Params.Duration("ttl", 2*time.Second)
	if err != nil {
		return nil, err
	}
	if ttl < 500*time.Millisecond {
		return nil, &ParamError{"ttl", env.Params["ttl"], "a duration >= 500ms (node restarts take tens of ms each)"}
	}
	rep := &Report{Scenario: s.Name(), Summary: s.Summary(), Seed: env.Seed, TrialsPerVariant: env.Trials, Params: env.Params}
	variants := []redlockVariant{
		{Variant: &Variant{Name: "restart-empty", Expect: ExpectBreaks, Measure: MeasureViolations,
			Description: "node 2 of A's majority {0,1,2} restarts with no data right after the grant; nodes 3,4 come back empty; B tries"}},
		{Variant: &Variant{Name: "delayed-restart", Expect: ExpectHolds, Measure: MeasureViolations,
			Description: "node 2 is killed right after the grant and restarted empty only after the TTL; A stops at the end of its validity"}, delayed: true},
		{Variant: &Variant{Name: "appendfsync-always", Expect: ExpectHolds, Measure: MeasureViolations,
			Description: "appendonly yes, appendfsync always; node 2 restarts from its AOF"}, fsync: true},
		{Variant: &Variant{Name: "extend-setnx", Expect: ExpectHolds, Measure: MeasureViolations,
			Description: "restart empty, then A extends with WithSetNXOnExtend (re-creating the key on the empty nodes) before B tries"}, extend: true, setnxExt: true},
		{Variant: &Variant{Name: "extend-plain", Expect: ExpectHolds, Measure: MeasureViolations,
			Description: "restart empty, then A extends without it: the extend fails on a majority, A learns it lost the lock and stops before B tries"}, extend: true},
	}
	for _, v := range variants {
		if err := s.runVariant(ctx, env, v, ttl); err != nil {
			return nil, err
		}
		rep.Variants = append(rep.Variants, v.Variant)
	}
	return rep, nil
}

func (s redlockRestart) runVariant(ctx context.Context, env *Env, v redlockVariant, ttl time.Duration) error {
	spec := topologies.Spec{Kind: topologies.Redlock, Masters: 5}
	if v.fsync {
		spec.AppendFsync = "always"
	}
	topo, err := env.start(ctx, spec)
	if err != nil {
		return err
	}
	defer topo.Close()
	for trial := 0; trial < env.Trials; trial++ {
		if err := s.trial(ctx, env, topo, v, trial, ttl); err != nil {
			return fmt.Errorf("%s trial %d: %w", v.Name, trial, err)
		}
	}
	return nil
}

func (s redlockRestart) trial(ctx context.Context, env *Env, topo topologies.Topology, v redlockVariant, trial int, ttl time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute+2*ttl)
	defer cancel()
	nodes := topo.Masters()
	restart := "node-restart-empty"
	if v.fsync {
		restart = "node-restart-from-disk"
	}
	for _, n := range nodes { // a previous trial's victims come back first
		if !n.Running() {
			if err := n.Restart(ctx, topologies.RestartEmpty); err != nil {
				return err
			}
		}
	}
	rec := NewRecorder()
	res := NewResource("resource", false, rec)
	key := fmt.Sprintf("redlock-restart:%s:%d:%d", v.Name, env.Seed, trial)
	addrs := topologies.Addrs(nodes)
	la, err := locks.NewRedlock(ctx, addrs, locks.RedlockOptions{SetNXOnExtend: v.setnxExt})
	if err != nil {
		return err
	}
	defer la.Close()
	lb, err := locks.NewRedlock(ctx, addrs, locks.RedlockOptions{})
	if err != nil {
		return err
	}
	defer lb.Close()
	a, b := NewClient("A", la, rec), NewClient("B", lb, rec)

	if _, err := inject(ctx, "node-kill", Target{Nodes: nodes[3:], Recorder: rec}); err != nil {
		return err
	}
	lease, err := a.Acquire(ctx, key, ttl)
	if err != nil {
		return fmt.Errorf("A's acquire on 3 of 5 nodes: %w", err)
	}
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	aInside := true
	if v.delayed {
		if _, err := inject(ctx, "node-kill", Target{Nodes: nodes[2:3], Recorder: rec}); err != nil {
			return err
		}
		// A works until its validity ends, then stops: the node is back only after that.
		_ = sleep(ctx, time.Until(lease.ValidUntil))
		a.Leave(res, lease)
		aInside = false
		_ = sleep(ctx, time.Until(lease.Start.Add(ttl)))
	}
	if _, err := inject(ctx, restart, Target{Nodes: nodes[2:], Recorder: rec}); err != nil {
		return err
	}
	if v.extend {
		if next, err := a.Extend(ctx, lease, ttl); err == nil {
			lease = next
		} else {
			if !errors.Is(err, locks.ErrNotHeld) {
				v.Notes = appendNote(v.Notes, fmt.Sprintf("trial %d: extend: %v", trial, err))
			}
			a.Leave(res, lease) // A learnt the lock is gone: it stops
			aInside = false
		}
	}
	tryCtx, tryCancel := context.WithTimeout(ctx, 300*time.Millisecond)
	leaseB, err := b.AcquireUntil(tryCtx, key, ttl, 20*time.Millisecond)
	tryCancel()
	if err != nil && !errors.Is(err, locks.ErrNotAcquired) && !errors.Is(err, context.DeadlineExceeded) {
		v.Notes = appendNote(v.Notes, fmt.Sprintf("trial %d: B failed for a reason other than contention: %v", trial, err))
	}
	if err == nil {
		v.SecondGranted++
		_ = b.Enter(ctx, res, leaseB)
		b.Write(ctx, res, leaseB)
		_ = sleep(ctx, 50*time.Millisecond)
		b.Leave(res, leaseB)
		_ = b.Release(ctx, leaseB)
	}
	if aInside {
		if time.Now().After(lease.ValidUntil) {
			v.Notes = appendNote(v.Notes, fmt.Sprintf("trial %d: A's validity ended before B was done: the TTL is too short for this machine", trial))
		}
		a.Write(ctx, res, lease)
		a.Leave(res, lease)
		_ = a.Release(ctx, lease)
	}
	_, err = env.judgeTrial(s.Name(), v.Variant, trial, nil, rec.History())
	return err
}

func appendNote(notes []string, n string) []string {
	if len(notes) < 10 {
		notes = append(notes, n)
	}
	return notes
}
