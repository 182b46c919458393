package redlock

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// redlockRestart: A holds a Redlock on exactly 3 of 5 nodes (two are down when it
// locks). One of A's three restarts with no data right after the grant and the two
// come back empty: B finds 3 free nodes and wins a majority while A still holds. A
// restart delayed past the TTL, an extend that re-creates missing keys
// (WithSetNXOnExtend), or a node that keeps its data across a host crash (appendfsync
// always on a disk that forgets what was not fsynced; everysec and no beside it) each
// change what happens; the run measures it.
type redlockRestart struct{}

// hostCrashPolicies are the policies a node's host crash runs under, in the order of what they keep.
var hostCrashPolicies = []string{"no", "everysec", "always"}

// isRedlock: independent masters, a majority grants.
func isRedlock(s lab.Store) bool {
	return backend.KindIs[backend.IndependentMajority](linked.Catalog(), s.Spec().Kind)
}

type redlockVariant struct {
	lab.Variant
	strategy string
	fsync    string // the appendfsync policy of a host crash on a forgetful disk; "" restarts empty
	delayed  bool   // the node stays down for the TTL
	extend   bool   // A extends once the nodes are back, before B tries
	setnxExt bool   // ... with WithSetNXOnExtend
}

func (s redlockRestart) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	ttl := p.Duration("ttl")
	rep := env.NewReport()
	for _, st := range p.Stores("strategies") {
		mk := func(name, what string, claims ...results.Claim) lab.Variant {
			return lab.Variant{Variant: &results.Variant{Name: st.Strategy() + "/" + name, Measure: results.Violations,
				Claims: claims,
				Params: map[string]string{"strategy": st.Strategy()}, Description: what}}
		}
		// Where A had stopped, B must get in: 0 violations then means the lock moved on
		// cleanly, not that nobody could lock. Where A still holds, B must not.
		variants := []redlockVariant{
			{Variant: mk("restart-empty",
				"node 2 of A's majority {0,1,2} restarts with no data right after the grant; nodes 3,4 come back empty; B tries",
				results.Always(results.Violations))},
			{Variant: mk("delayed-restart",
				"node 2 is killed right after the grant and restarted empty only after the TTL; A stops at the end of its validity",
				results.Holds(results.Violations), results.Always(results.SecondGranted)), delayed: true},
			{Variant: mk("appendfsync-always", "appendonly yes, appendfsync always, on disks that keep only what was "+
				"fsynced; node 2's host crashes right after the grant (3 and 4's too) and it restarts on what its disk kept",
				results.Holds(results.Violations), results.Holds(results.SecondGranted)), fsync: "always"},
			{Variant: mk("host-crash-everysec", "the same host crash under appendfsync everysec: the crash races the "+
				"fsync of the next second"), fsync: "everysec"},
			{Variant: mk("host-crash-no", "the same host crash under appendfsync no: the AOF never reached the disk",
				results.Always(results.Violations)), fsync: "no"},
			{Variant: mk("extend-setnx",
				"restart empty, then A extends with WithSetNXOnExtend (re-creating the key on the empty nodes) before B tries",
				results.Holds(results.Violations), results.Holds(results.SecondGranted)), extend: true, setnxExt: true},
			{Variant: mk("extend-plain",
				"restart empty, then A extends without it: the extend fails on a majority, A learns it lost the lock and stops "+
					"before B tries",
				results.Holds(results.Violations), results.Always(results.SecondGranted)), extend: true},
		}
		for i := range variants {
			if variants[i].fsync != "" && !slices.Contains(p.Strings("fsync"), variants[i].fsync) {
				continue
			}
			variants[i].strategy = st.Strategy()
			part, err := s.runVariant(ctx, env, variants[i], ttl)
			if err != nil {
				return nil, err
			}
			rep.Variants = append(rep.Variants, part.Variants...)
		}
	}
	return rep, nil
}

func (s redlockRestart) runVariant(ctx context.Context, env *lab.Env, v redlockVariant,
	ttl time.Duration) (*results.Report, error) {
	spec := backend.Spec{Kind: topologies.Redlock, Masters: 5, AppendFsync: v.fsync, ForgetfulDisk: v.fsync != ""}
	topo, err := env.StartTopology(ctx, spec)
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	return lab.RunTrials(ctx, env, []redlockVariant{v}, func(ctx context.Context, v redlockVariant,
		t *lab.Trial) error {
		return s.trial(ctx, topo, v, t, ttl)
	})
}

func (s redlockRestart) trial(ctx context.Context, topo topologies.Topology, v redlockVariant, t *lab.Trial,
	ttl time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute+2*ttl)
	defer cancel()
	nodes := topo.Masters()
	restart, comeBack := "node-restart-empty", topologies.RestartEmpty
	if v.fsync != "" {
		if _, ok := nodes[2].(topologies.HostCrashed); !ok {
			return lab.Failed("setup", fmt.Errorf("a host crash needs a disk that forgets: run it with --provider process"))
		}
		// Emptied, a node would make appendonlydir anew without fsyncing its parent.
		restart, comeBack = "host-crash", topologies.RestartFromDisk
	}
	for _, n := range nodes { // a previous trial's victims come back first
		if !n.Running() {
			if err := n.Restart(ctx, comeBack); err != nil {
				return lab.Failed("setup", err)
			}
		}
	}
	res := lab.NewResource("resource", false, t.Rec)
	la, err := locks.ForTopology(ctx, v.strategy, topo,
		locks.Options{Redlock: locks.RedlockOptions{SetNXOnExtend: v.setnxExt}})
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer la.Close()
	lb, err := locks.ForTopology(ctx, v.strategy, topo, locks.Options{})
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer lb.Close()
	a, b := lab.NewClient("A", la, t.Rec), lab.NewClient("B", lb, t.Rec)

	victim := nodes[2]
	before, err := redisadmin.RunID(ctx, victim.Addr())
	if err != nil {
		return lab.Failed("observe", err)
	}
	if _, err := nemesis.Inject(ctx, "node-kill", nemesis.Target{Nodes: nodes[3:], Recorder: t.Rec}); err != nil {
		return lab.Failed("nemesis", err)
	}
	// A locks alone: an attempt every running node cut off by its deadline is A's lateness.
	grant, err := lab.AcquireAlone(ctx, a, t.Key, ttl, ttl/4)
	if err != nil {
		return lab.Failed("first-acquire", fmt.Errorf("A's acquire on 3 of 5 nodes: %w", err))
	}
	lease := grant.Lease
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	aInside := true
	if v.delayed {
		if _, err := nemesis.Inject(ctx, "node-kill", nemesis.Target{Nodes: []topologies.Node{victim},
			Recorder: t.Rec}); err != nil {
			return lab.Failed("nemesis", err)
		}
		// A works until its validity ends, then stops: the node is back only after that.
		_ = lab.Sleep(ctx, time.Until(lease.ValidUntil))
		a.Leave(res, lease)
		aInside = false
		_ = lab.Sleep(ctx, time.Until(lease.Start.Add(ttl)))
	}
	if _, err := nemesis.Inject(ctx, restart, nemesis.Target{Nodes: nodes[2:], Recorder: t.Rec}); err != nil {
		return lab.Failed("nemesis", err)
	}
	keptKey, err := s.proveRestart(ctx, t, victim, before, v)
	if err != nil {
		return err
	}
	if v.extend {
		if next, err := a.Extend(ctx, lease, ttl); err == nil {
			lease = next
			keptKey = true // an extend holds only on a majority: A's key is back on it
		} else {
			if !errors.Is(err, locks.ErrNotHeld) {
				return lab.Failed("extend", err)
			}
			a.Leave(res, lease) // A learnt the lock is gone: it stops
			aInside = false
		}
	}
	// Where the victim kept A's key, A's majority refuses B at once: its refusals are the
	// answer. Where the key is gone from three of five nodes, or A has stopped, B must get
	// in, however long its attempts take the machine (300 ms ran out under load).
	try := briefTry
	switch {
	case !aInside:
		try = tryAfterHolder
	case !keptKey:
		try = min(tryAfterHolder, time.Until(lease.ValidUntil)) // past it, an overlap is A's own
	}
	if err := secondTry(ctx, b, t.Key, ttl, res, try, 50*time.Millisecond); err != nil {
		return err
	}
	if aInside {
		return finishHolder(ctx, a, res, lease, ttl)
	}
	return nil
}

// proveRestart shows the victim restarted: empty, or after a host crash with what its
// disk dropped; keptKey says A's key survived there.
func (redlockRestart) proveRestart(ctx context.Context, t *lab.Trial, victim topologies.Node, before string,
	v redlockVariant) (keptKey bool, err error) {
	if v.fsync != "" {
		return lab.ProveHostCrash(ctx, t, victim, before)
	}
	return false, lab.ProveRestart(ctx, t, victim, before, true)
}
