package hostcrash

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// hostCrash: A's lock is granted by a store of one node (a Redis master, a lone etcd
// member or ZooKeeper server) whose data sits on a disk that keeps only what was fsynced; the host crashes
// right after the grant and the node starts on what its disk kept. Under appendfsync
// no the AOF was never fsynced and the lock is gone, so B takes it while A still holds
// it; under always the grant waited for the fsync; everysec is the measured case in
// between; etcd and ZooKeeper fsync their logs before they answer. PostgreSQL's
// variants commit a change instead (postgres.go). A process kill could not tell them
// apart: the kernel keeps what a dead process wrote.
type hostCrash struct{}

// none, as a list param's value, runs none of its variants.
const none = "none"

// policies are the appendfsync policies, in the order of what they keep.
var policies = []string{"no", "everysec", "always"}

// orNone lets a list param say "none": the run is then the other params' variants only.
func orNone(p lab.Param) lab.Param {
	parse := p.Parse
	p.Parse = func(s string) (any, string) {
		if strings.TrimSpace(s) == none {
			return []lab.Store{}, ""
		}
		return parse(s)
	}
	return p
}

// onOneNode: a store whose deployment is one Redis master or one consensus member.
func onOneNode(s lab.Store) bool {
	spec := s.Spec().WithDefaults(linked.Catalog())
	return spec.Kind == topologies.Single || spec.Members == 1
}

// speaksRedis: the store's nodes keep an AOF under a policy, and their keys can be read.
func speaksRedis(s lab.Store) bool {
	kind := s.Spec().Kind
	return kind == topologies.Single || kind == topologies.Replicated
}

type hostCrashVariant struct {
	lab.Variant
	strategy lab.Store
	fsync    string
}

// claims says what each policy promises for A's acknowledged lock; a strategy that
// waits for fsyncs of its own is measured, its promise a claim of the write-up's table.
// etcd and ZooKeeper with fsync promise never to let B in, nor to hand A's fencing
// token out again; without it, nothing.
func claims(st lab.Store, fsync string) []results.Claim {
	if !speaksRedis(st) {
		if st.Spec().UnsafeNoFsync {
			return nil
		}
		return []results.Claim{results.Holds(results.Violations), results.Holds(results.ReissuedTokens)}
	}
	if st.Spec().AppendFsync != "" {
		return nil
	}
	return policyClaims(fsync)
}

// policyClaims is what an AOF policy promises the acknowledged lock of the node that
// restarts on its disk.
func policyClaims(fsync string) []results.Claim {
	switch fsync {
	case "no": // the AOF reaches the disk only when the kernel decides: after a crash, never
		return []results.Claim{results.Always(results.LostLocks), results.Always(results.Violations)}
	case "always": // the reply waited for the fsync
		return []results.Claim{results.Holds(results.LostLocks), results.Holds(results.Violations)}
	}
	return nil // everysec: the crash races the next fsync, a rate to measure
}

func (s hostCrash) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	ttl := p.Duration("ttl")
	rep := env.NewReport()
	for _, st := range p.Stores("strategies") {
		fsyncs, err := policiesOf(st, p.Strings("fsync"))
		if err != nil {
			return nil, fmt.Errorf("host-crash: %w", err)
		}
		for _, fsync := range fsyncs {
			v := newVariant(st, fsync)
			part, err := s.runVariant(ctx, env, v, ttl)
			if err != nil {
				return nil, err
			}
			rep.Variants = append(rep.Variants, part.Variants...)
		}
	}
	for _, setting := range p.Strings("postgres") {
		if setting == none {
			continue
		}
		part, err := s.runPostgres(ctx, env, newPGVariant(setting))
		if err != nil {
			return nil, err
		}
		rep.Variants = append(rep.Variants, part.Variants...)
	}
	return rep, nil
}

// newVariant is st under fsync (a Redis policy, or "" for a store with none). A Redis
// variant counts locks lost, read on the restarted master; another store's, second
// holders, as its own key cannot be read the same way.
func newVariant(st lab.Store, fsync string) hostCrashVariant {
	v := &results.Variant{Name: st.Strategy() + "/host-crash", Measure: results.Violations, Claims: claims(st, fsync),
		Params: map[string]string{"strategy": st.Strategy()},
		Description: "data on a disk that keeps only what was fsynced; the host crashes right after A's grant, the " +
			"node restarts on what remains, B tries"}
	if speaksRedis(st) {
		v.Name, v.Measure, v.Params["appendfsync"] = fmt.Sprintf("%s/appendfsync-%s", st.Strategy(), fsync),
			results.LostLocks, fsync
		v.Description = fmt.Sprintf("appendonly yes, appendfsync %s, %s", fsync, v.Description)
	}
	return hostCrashVariant{strategy: st, fsync: fsync, Variant: lab.Variant{Variant: v}}
}

// policiesOf are the policies st runs under: its own alone when it names one (a
// WAITAOF grant is shaped for its policy), else every one asked for; "" alone for a
// store with no AOF, which keeps its own. Asked to leave its own out, st is refused.
func policiesOf(st lab.Store, asked []string) ([]string, error) {
	if !speaksRedis(st) {
		return []string{""}, nil
	}
	own := st.Spec().AppendFsync
	if own == "" {
		return asked, nil
	}
	if slices.Contains(asked, own) {
		return []string{own}, nil
	}
	return nil, fmt.Errorf("strategy %s runs under its own appendfsync %s, which --param fsync leaves out",
		st.Strategy(), own)
}

func (s hostCrash) runVariant(ctx context.Context, env *lab.Env, v hostCrashVariant,
	ttl time.Duration) (*results.Report, error) {
	spec := v.strategy.Spec()
	spec.ForgetfulDisk = true
	if v.fsync != "" {
		spec.AppendFsync = v.fsync
	}
	topo, err := env.StartTopology(ctx, spec)
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	if _, ok := topo.Masters()[0].(topologies.HostCrashed); !ok {
		return nil, fmt.Errorf("host-crash: strategy %s: provider %s has no disk that forgets (Redis, etcd and "+
			"ZooKeeper have one on their process providers: --provider process)", v.strategy.Strategy(), topo.Provider())
	}
	return lab.RunTrials(ctx, env, []hostCrashVariant{v}, func(ctx context.Context, v hostCrashVariant,
		t *lab.Trial) error {
		return trial(ctx, topo, v, t, ttl)
	})
}

// trial grants A the lock, crashes the node's host at once and has B try on what the
// node kept. Judged once the node restarted and its disk said what it dropped.
func trial(ctx context.Context, topo topologies.Topology, v hostCrashVariant, t *lab.Trial, ttl time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute+ttl)
	defer cancel()
	node := topo.Masters()[0]
	clients, closeA, err := lab.StoreClients(ctx, v.strategy, topo, false, t.Rec, "A")
	if err != nil {
		return err
	}
	defer closeA()
	a, res := clients[0], lab.NewResource("resource", false, t.Rec)
	before, err := crashesOf(node)
	if err != nil {
		return err
	}
	runID := ""
	if speaksRedis(v.strategy) {
		if runID, err = redisadmin.RunID(ctx, node.Addr()); err != nil {
			return lab.Failed("observe", err)
		}
	}
	lease, err := a.Acquire(ctx, t.Key, ttl)
	if err != nil {
		return lab.FirstGrant(err)
	}
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	if _, err := nemesis.Inject(ctx, "host-crash", nemesis.Target{Topology: topo, Nodes: []topologies.Node{node},
		Recorder: t.Rec}); err != nil {
		return lab.Failed("nemesis", err)
	}
	if speaksRedis(v.strategy) {
		if _, err := lab.ProveHostCrash(ctx, t, node, runID); err != nil {
			return err
		}
		err = sentinelrig.ProveKeyThenContest(ctx, t, lab.RedisKeys{}, topo, node, "the restarted "+node.Name(), a, res,
			lease)
	} else {
		err = proveThenContest(ctx, t, topo, v.strategy, node, before, a, res, lease, ttl)
	}
	if err != nil {
		return err
	}
	if err := leaseOutlasted(lease, ttl); err != nil {
		return err
	}
	_ = a.Release(ctx, lease) // refused where B took the key: expected
	return nil
}

// leaseOutlasted refuses a trial in which A's lease ended before B was done: B's grant
// would then say nothing of the crash.
func leaseOutlasted(lease locks.Lease, ttl time.Duration) error {
	if time.Now().After(lease.ValidUntil) {
		return lab.Failed("timing", fmt.Errorf("A's lease ended before B was done: the %v TTL is too short here", ttl))
	}
	return nil
}

// crashesOf is how many host crashes node has had.
func crashesOf(node topologies.Node) (int, error) {
	hc, ok := node.(topologies.HostCrashed)
	if !ok {
		return 0, lab.Failed("setup", fmt.Errorf("%s: no disk that forgets", node.Name()))
	}
	c, _ := hc.LastHostCrash()
	return c.Count, nil
}

// ownCrash is node's last host crash when it is this trial's (the disk counted one more
// than before) and the node runs again; otherwise the trial's fault was not produced.
func ownCrash(node topologies.Node, before int) (topologies.HostCrash, error) {
	crash, err := topologies.LastHostCrash(node)
	if err != nil || crash.Count != before+1 || !node.Running() {
		return crash, lab.NoFault("%s: no host crash of its own seen (%v, crash %d after %d, running %v)", node.Name(),
			err, crash.Count, before, node.Running())
	}
	return crash, nil
}

// proveThenContest, for a store whose keys the lab does not read: proves this trial's
// crash by the disk's own count and report, then has B, with the same strategy, try
// for A's key while A is still inside; B let in is two holders.
func proveThenContest(ctx context.Context, t *lab.Trial, topo topologies.Topology, st lab.Store, node topologies.Node,
	before int, a *lab.Client, res *lab.Resource, lease locks.Lease, ttl time.Duration) error {
	crash, err := ownCrash(node, before)
	if err != nil {
		return err
	}
	t.Input("bytes_dropped", float64(crash.BytesDropped))
	t.Prove("%s's host crashed and it restarted; %s", node.Name(), crash.Summary)
	lb, err := st.Locker(ctx, topo, false)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer lb.Close()
	b := lab.NewClient("B", lb, t.Rec)
	granted, err := lab.SecondTry(ctx, b, t.Key, ttl, res, 2*time.Second, 50*time.Millisecond, 0)
	switch {
	case err != nil:
		return err
	case granted:
		t.Prove("B was granted %s while A still held it", t.Key)
	default:
		t.Prove("B, asking for 2 s, was refused: A's lock was there")
	}
	a.Leave(res, lease)
	return nil
}
