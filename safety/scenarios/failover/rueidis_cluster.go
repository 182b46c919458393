package failover

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/rueidislayout"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// rueidisClusterSpread: rueidislock on a Redis Cluster holds a lock on 2 of 3 keys,
// each in the slot its name hashes to, so a majority of keys is not a majority of
// masters: with three masters, most names put two of their keys on one master. That
// master dies, and a replica is promoted without them: either its link was cut before
// A's grant (replication lost them), or it had them but the failover outlasted their
// validity (5 s, pushed by A's watchdog, which cannot reach the dead master). B is then
// granted within A's lease. A name whose three keys sit on three masters loses one key
// and keeps the lock.
type rueidisClusterSpread struct{}

// The two placements of a name's keys a trial looks for.
const (
	sharedPlacement = "majority-on-one-master"
	spreadPlacement = "spread"
	// namesTried bounds the search for a name of the placement asked, over namesWidths
	// lengths of its suffix.
	namesTried  = 400
	namesWidths = 8
)

func fitsRueidisCluster(s lab.Store) bool {
	return lab.IsKeyedFailover(s) && strings.HasPrefix(s.Strategy(), "rueidislock")
}

type spreadVariant struct {
	lab.Variant
	placement string
	// replicated: the replicas acknowledged A's keys (WAIT 1) before the kill; otherwise
	// their link was cut before A's grant.
	replicated bool
	// thirdHeld: another client holds the name's third key at A's grant and frees it
	// after, so A's grant sits on exactly a majority of keys (redsync #186's case): the
	// library tries each remaining key once after a majority, and not again.
	thirdHeld bool
	// restoreKeys is a test hook: the keys are written back on the promoted replica
	// before it is read, as if it had kept them, and no trial may be judged.
	restoreKeys bool
	// retakeThird is a test hook: the freed third key is written again before B tries, as
	// if A had taken it, and no trial may be judged.
	retakeThird bool
}

// otherHolder is the value of the third key while another client holds it.
const otherHolder = "another-holder"

func (s rueidisClusterSpread) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	st := p.Store("strategy").(lab.KeyedFailover)
	spec := st.Spec()
	spec.DownAfter = p.Duration("node-timeout")
	variants := spreadVariants(st, spec)
	return lab.RunTrials(ctx, env, variants, func(ctx context.Context, v spreadVariant, t *lab.Trial) error {
		return s.trial(ctx, env, st, spec, v, t, p.Duration("promotion-timeout"))
	})
}

func spreadVariants(st lab.Store, spec backend.Spec) []spreadVariant {
	v := func(placement string, replicated bool, what string, claims ...results.Claim) spreadVariant {
		name, link := st.Strategy()+"/"+placement+"/cut", "replicas cut off before the grant"
		if replicated {
			name, link = st.Strategy()+"/"+placement+"/replicated", "replicas acknowledged the keys (WAIT 1)"
		}
		return spreadVariant{placement: placement, replicated: replicated, Variant: lab.Variant{Variant: &results.Variant{
			Name: name, Measure: results.LostLocks, Claims: claims, Description: st.Strategy() + ": " + what + "; " + link,
			Params: map[string]string{"strategy": st.Strategy(), "placement": placement, "replicated": fmt.Sprint(replicated),
				"node_timeout": spec.DownAfter.String()}}}}
	}
	shared := "two or three of the name's keys on the master that dies"
	spread := "the name's three keys on three masters: the one that dies takes one key, A keeps two"
	// Failing a master takes at least the node timeout; past the keys' validity they expire unpushed.
	var outlasted []results.Claim
	if spec.DownAfter >= rueidislayout.KeyValidity {
		outlasted = []results.Claim{results.Always(results.LostLocks)}
	}
	exact := v(spreadPlacement, false, "the name's three keys on three masters, the third held by another client at "+
		"A's grant and freed after it: A holds exactly two, and the master that dies takes one",
		results.Always(results.LostLocks))
	exact.Name, exact.thirdHeld, exact.Params["third_key"] = st.Strategy()+"/exact-majority/cut", true, "held at the grant"
	return []spreadVariant{
		v(sharedPlacement, false, shared, results.Always(results.LostLocks)),
		v(sharedPlacement, true, shared+": the failover outlasts their validity", outlasted...),
		v(spreadPlacement, false, spread, results.Holds(results.LostLocks)),
		v(spreadPlacement, true, spread, results.Holds(results.LostLocks)),
		exact,
	}
}

// trial: a fresh cluster; a name of the variant's placement; the master to kill cut off
// from its replicas, or its replicas acknowledging A's keys; A's grant; the kill, the
// promotion; then B, on a client that learns the cluster after it, tries once.
func (s rueidisClusterSpread) trial(ctx context.Context, env *lab.Env, st lab.KeyedFailover, spec backend.Spec,
	v spreadVariant, t *lab.Trial, promotion time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute+promotion)
	defer cancel()
	topo, err := env.StartTopology(ctx, spec)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer topo.Close()
	lock, target, onTarget, err := nameOnTarget(ctx, topo, t.Key, v.placement)
	if err != nil {
		return err
	}
	t.Input("keys_on_killed_master", float64(len(onTarget)))
	replicas, err := st.ReplicasOf(ctx, topo, target)
	if err != nil {
		return lab.Failed("setup", err)
	}
	opts := locks.Options{Rueidis: locks.RueidisOptions{TryNextAfter: time.Second}} // one SET's bound on a busy machine
	la, err := locks.ForTopology(ctx, st.Strategy(), topo, opts)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer la.Close()
	if err := lab.WarmUp(ctx, la, lock.name+":warm"); err != nil { // the slot map, learned before any cut
		return err
	}
	a := lab.NewClient("A", la, t.Rec)
	res := lab.NewResource("resource", false, t.Rec)
	third := rueidislayout.KeyOf(lock.name, rueidislayout.ClusterMajority*2-2)
	if v.thirdHeld {
		if err := setThird(ctx, lock.masterOf[third], third); err != nil {
			return err
		}
	}
	healCut := nemesis.NoHeal
	if !v.replicated {
		if healCut, err = lab.CutReplicas(ctx, t, target, replicas); err != nil {
			return lab.Failed("nemesis", err)
		}
	}
	defer healCut(context.Background()) // stopped replicas must not outlive the trial
	lease, err := a.Acquire(ctx, lock.name, time.Hour)
	if err != nil {
		return lab.FirstGrant(err)
	}
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	defer a.Leave(res, lease) // a no-op once A left
	link := "whose replicas were cut off"
	if v.replicated {
		if err := lab.AwaitAcks(ctx, target, 1); err != nil {
			return lab.Failed("observe", err)
		}
		link = "whose replica acknowledged them"
	} else if err := sentinelrig.ProveCut(ctx, t, target); err != nil {
		return err
	}
	held, err := keysHeld(ctx, st, topo, lock)
	if err != nil {
		return err
	}
	if v.thirdHeld {
		if err := freeThird(ctx, t, lock.masterOf[third], third); err != nil {
			return err
		}
		held--
	}
	t.Prove("A's grant left %d of its 3 keys on the masters, %d of them on %s, %s", held, len(onTarget),
		target.Name(), link)
	killed := time.Now()
	next, err := lab.KillLaggedPrimary(ctx, t, st, topo, target, healCut, promotion)
	if err != nil {
		return err
	}
	t.Input("promotion_ms", lab.Millis(time.Since(killed)))
	if v.restoreKeys {
		if err := restore(ctx, next, onTarget); err != nil {
			return err
		}
	}
	lost, err := keysGoneOn(ctx, st, topo, next, onTarget)
	if err != nil {
		return err
	}
	t.Prove("%s was promoted without %d of A's keys", next.Name(), lost)
	if lost != len(onTarget) {
		return lab.NoFault("the promoted %s lacks %d of the %d keys the dead master held", next.Name(), lost,
			len(onTarget))
	}
	if v.retakeThird {
		if err := setThird(ctx, lock.masterOf[third], third); err != nil {
			return err
		}
	}
	if v.thirdHeld {
		if err := thirdStillFree(ctx, t, lock.masterOf[third], third); err != nil {
			return err
		}
	}
	var keep func() error
	if v.placement == spreadPlacement && !v.thirdHeld {
		keep = func() error { return survivorsStillHeld(ctx, t, st, topo, lock, target) }
	}
	return contest(ctx, t, st, topo, a, res, lease, lock.name, keep)
}

// survivorsStillHeld: A's keys on the masters that did not die are still there when B
// tries. A key A's watchdog let expire (a push late on a loaded machine) would let B in
// for a reason the failover did not give: not this fault.
func survivorsStillHeld(ctx context.Context, t *lab.Trial, st lab.KeyedFailover, topo topologies.Topology, p placed,
	dead topologies.Node) error {
	missing, err := keysMissing(ctx, st, topo, p, dead.Addr())
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return lab.NoFault("A's keys %v on the surviving masters expired before B tried: its watchdog did not push "+
			"them in time", missing)
	}
	t.Prove("A's keys on the surviving masters were still there before B tried")
	return nil
}

// setThird has another client hold the third key on its master.
func setThird(ctx context.Context, addr, key string) error {
	c := lab.PlainClient(addr)
	defer c.Close()
	if err := whileClusterDown(ctx, func() error { return c.Set(ctx, key, otherHolder, time.Minute).Err() }); err != nil {
		return lab.Failed("setup", fmt.Errorf("hold %s on %s: %w", key, addr, err))
	}
	return nil
}

// freeThird shows the other client still held the third key after A's grant (A's grant
// did not take it), then frees it, as a client that failed to reach a majority does.
func freeThird(ctx context.Context, t *lab.Trial, addr, key string) error {
	c := lab.PlainClient(addr)
	defer c.Close()
	var v string
	err := whileClusterDown(ctx, func() (err error) { v, err = c.Get(ctx, key).Result(); return err })
	if err != nil && !errors.Is(err, redis.Nil) {
		return lab.Failed("observe", fmt.Errorf("read %s on %s: %w", key, addr, err))
	}
	if v != otherHolder {
		return lab.NoFault("the third key %s held %q after A's grant, not the other client's", key, v)
	}
	if err := whileClusterDown(ctx, func() error { return c.Del(ctx, key).Err() }); err != nil {
		return lab.Failed("nemesis", fmt.Errorf("free %s on %s: %w", key, addr, err))
	}
	t.Prove("another client held the third key %s at A's grant, and freed it after", key)
	return nil
}

// thirdStillFree shows A did not take the freed third key: its library tried it once,
// while the other client held it, and not again. Read just before B tries.
func thirdStillFree(ctx context.Context, t *lab.Trial, addr, key string) error {
	c := lab.PlainClient(addr)
	defer c.Close()
	var n int64
	if err := whileClusterDown(ctx, func() (err error) { n, err = c.Exists(ctx, key).Result(); return err }); err != nil {
		return lab.Failed("observe", fmt.Errorf("read %s on %s: %w", key, addr, err))
	}
	if n != 0 {
		return lab.NoFault("A took the freed third key %s: its grant no longer sits on exactly a majority", key)
	}
	t.Prove("the third key %s was still free before B tried: A held at most the two it was granted", key)
	return nil
}

// whileClusterDown runs f again while a node answers CLUSTERDOWN, for up to 30 s: the
// masters count the cluster down from a master's failure until they learn of its
// replica's promotion, and briefly when three clusters start at once on two cores.
func whileClusterDown(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := f()
		if err == nil || !strings.HasPrefix(err.Error(), "CLUSTERDOWN ") || time.Now().After(deadline) {
			return err
		}
		if err := lab.Sleep(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
}

// contest gives A its chance to hear from its library that the lock is gone (a correct
// holder then stops), checks what keep checks, if any, then lets B try once. The lock is
// lost if B is granted within A's lease, told or not: counted here, as the server's keys
// are the library's, not the lease's.
func contest(ctx context.Context, t *lab.Trial, st lab.Store, topo topologies.Topology, a *lab.Client,
	res *lab.Resource, lease locks.Lease, name string, keep func() error) error {
	told := false
	if lost, ok := a.Locker.(locks.LossNotifier).Lost(lease); ok {
		told = lab.Within(ctx, lost, lab.NoticeBound)
	}
	t.Input("a_told_before_b", 0)
	if told {
		t.Input("a_told_before_b", 1)
		a.Leave(res, lease)
	}
	if keep != nil {
		if err := keep(); err != nil {
			return err
		}
	}
	granted, err := secondTry(ctx, t, st, topo, res, name)
	if err != nil {
		return err
	}
	lostLocks := 0
	if granted {
		lostLocks = 1
	}
	t.Count(results.LostLocks, lostLocks)
	return nil
}

// restore writes keys on node for a minute: the test hook's replica that kept them.
func restore(ctx context.Context, node topologies.Node, keys []string) error {
	c := lab.PlainClient(node.Addr())
	defer c.Close()
	for _, k := range keys {
		if err := c.Set(ctx, k, "restored", time.Minute).Err(); err != nil {
			return lab.Failed("observe", fmt.Errorf("restore %s on %s: %w", k, node.Name(), err))
		}
	}
	return nil
}

// placed is a lock name and the master each of its keys sits on.
type placed struct {
	name     string
	masterOf map[string]string // key -> the address of its slot's master
}

// nameOnTarget finds a name, from key, whose three keys sit as placement asks, the
// master to kill (the one holding two or three of them, or, spread, key 0's) and the
// keys it holds. Slots are computed here, on one reading of the cluster's slot map.
func nameOnTarget(ctx context.Context, topo topologies.Topology, key, placement string) (placed, topologies.Node,
	[]string, error) {
	slotMaster, err := redisadmin.SlotMasters(ctx, topo.Masters()[0].Addr())
	if err != nil {
		return placed{}, nil, nil, lab.Failed("setup", err)
	}
	seen := map[string]bool{}
	for n := range namesTried {
		// Names of several lengths: at some lengths no name spreads its keys over three
		// masters (CRC16 is linear, and the keys differ in one character).
		p := placed{name: fmt.Sprintf("%s:%0*d", key, 1+n%namesWidths, n/namesWidths), masterOf: map[string]string{}}
		byMaster := map[string][]string{}
		for i := range rueidislayout.ClusterMajority*2 - 1 {
			k := rueidislayout.KeyOf(p.name, i)
			m, ok := slotMaster(redisadmin.KeySlot(k))
			if !ok {
				return placed{}, nil, nil, lab.Failed("setup", fmt.Errorf("no master serves the slot of %s", k))
			}
			p.masterOf[k] = m
			byMaster[m] = append(byMaster[m], k)
			seen[m] = true
		}
		for addr, keys := range byMaster {
			shared := placement == sharedPlacement && len(keys) >= rueidislayout.ClusterMajority
			spread := placement == spreadPlacement && len(byMaster) == 3 && keys[0] == rueidislayout.KeyOf(p.name, 0)
			if shared || spread {
				m, err := lab.NodeAt(topo, addr)
				if err != nil {
					return placed{}, nil, nil, lab.Failed("setup", err)
				}
				return p, m, keys, nil
			}
		}
	}
	return placed{}, nil, nil, lab.Failed("setup", fmt.Errorf("no name of %d tried has its keys %s; their slots' "+
		"masters: %v", namesTried, placement, slices.Sorted(maps.Keys(seen))))
}

// keysHeld counts the lock's keys present on the masters of their slots.
func keysHeld(ctx context.Context, st lab.KeyedFailover, topo topologies.Topology, p placed) (int, error) {
	missing, err := keysMissing(ctx, st, topo, p, "")
	if err != nil {
		return 0, err
	}
	return len(p.masterOf) - len(missing), nil
}

// keysMissing lists the lock's keys absent from the masters of their slots, leaving
// out the master at except.
func keysMissing(ctx context.Context, st lab.KeyedFailover, topo topologies.Topology, p placed,
	except string) ([]string, error) {
	var missing []string
	for key, addr := range p.masterOf {
		if addr == except {
			continue
		}
		m, err := lab.NodeAt(topo, addr)
		if err != nil {
			return nil, lab.Failed("observe", err)
		}
		state, err := st.ReadKey(ctx, topo, m, key)
		if err != nil {
			return nil, lab.Failed("observe", fmt.Errorf("read %s on %s: %w", key, m.Name(), err))
		}
		if !state.Present {
			missing = append(missing, key)
		}
	}
	slices.Sort(missing)
	return missing, nil
}

// keysGoneOn counts the keys node lacks: the promoted replica, read for the keys its
// dead master held.
func keysGoneOn(ctx context.Context, st lab.KeyedFailover, topo topologies.Topology, node topologies.Node,
	keys []string) (int, error) {
	gone := 0
	for _, key := range keys {
		state, err := st.ReadKey(ctx, topo, node, key)
		if err != nil {
			return 0, lab.Failed("observe", fmt.Errorf("read %s on %s: %w", key, node.Name(), err))
		}
		if !state.Present {
			gone++
		}
	}
	return gone, nil
}

// secondTry is B on a fresh client, which learns the cluster as it is after the
// promotion: granted, it works briefly inside the resource; refused, it stops.
func secondTry(ctx context.Context, t *lab.Trial, st lab.Store, topo topologies.Topology, res *lab.Resource,
	name string) (bool, error) {
	lb, err := locks.ForTopology(ctx, st.Strategy(), topo,
		locks.Options{Rueidis: locks.RueidisOptions{TryNextAfter: time.Second}})
	if err != nil {
		return false, lab.Failed("second-acquire", err)
	}
	defer lb.Close()
	b := lab.NewClient("B", lb, t.Rec)
	lease, err := b.Acquire(ctx, name, time.Minute)
	switch {
	case errors.Is(err, locks.ErrNotAcquired):
		return false, nil
	case err != nil:
		return false, lab.Failed("second-acquire", err)
	}
	b.Work(ctx, res, lease, func() { _ = lab.Sleep(ctx, 20*time.Millisecond) })
	_ = b.Release(ctx, lease)
	return true, nil
}
