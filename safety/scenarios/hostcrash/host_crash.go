package hostcrash

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// hostCrash: A's lock is granted by a single master whose data sits on a disk that
// keeps only what was fsynced; the host crashes right after the grant and the master
// starts on what its disk kept. Under appendfsync no the AOF was never fsynced and
// the lock is gone, so B takes it while A still holds it; under always the grant
// waited for the fsync; everysec is the measured case in between. A process kill
// could not tell the policies apart: the kernel keeps what a dead process wrote.
type hostCrash struct{}

func init() { lab.Register(hostCrash{}, lab.StartsKinds(topologies.Single)) }

func (hostCrash) Name() string { return "host-crash" }
func (hostCrash) Summary() string {
	return "a single Redis master's host loses power right after a grant and restarts on what was fsynced: " +
		"appendfsync no loses the lock, always keeps it, everysec is measured (needs --provider process)"
}

// policies are the appendfsync policies, in the order of what they keep.
var policies = []string{"no", "everysec", "always"}

func (hostCrash) Params() []lab.Param {
	return []lab.Param{
		lab.StoresParam("strategies", []string{"single", "waitaof-local"}, onOneMaster,
			"the lock strategies to run, each on one master; one that names its own policy (waitaof-local: "+
				"everysec) runs under that one only"),
		lab.ChoicesParam("fsync", policies, policies, "the master's appendfsync policies"),
		lab.DurationParam("ttl", 10*time.Second, time.Second,
			"the lock's TTL: A's lease must outlast the crash, the restart and B's try"),
	}
}

// onOneMaster: a store whose deployment is one Redis master.
func onOneMaster(s lab.Store) bool { return s.Spec().Kind == topologies.Single }

type hostCrashVariant struct {
	lab.Variant
	strategy lab.Store
	fsync    string
}

// claims says what each policy promises for A's acknowledged lock; a strategy that
// waits for fsyncs of its own is measured, its promise a claim of the write-up's table.
func claims(st lab.Store, fsync string) []results.Claim {
	if st.Spec().AppendFsync != "" {
		return nil
	}
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
	rep := env.NewReport(s)
	for _, st := range p.Stores("strategies") {
		fsyncs := policiesOf(st, p.Strings("fsync"))
		if len(fsyncs) == 0 {
			return nil, fmt.Errorf("host-crash: strategy %s runs under its own appendfsync %s, which --param fsync "+
				"leaves out", st.Strategy(), st.Spec().AppendFsync)
		}
		for _, fsync := range fsyncs {
			v := hostCrashVariant{strategy: st, fsync: fsync, Variant: lab.Variant{Variant: &results.Variant{
				Name: fmt.Sprintf("%s/appendfsync-%s", st.Strategy(), fsync), Measure: results.LostLocks,
				Claims: claims(st, fsync), Params: map[string]string{"strategy": st.Strategy(), "appendfsync": fsync},
				Description: fmt.Sprintf("appendonly yes, appendfsync %s, data on a disk that keeps only what was fsynced; "+
					"the host crashes right after A's grant, the master restarts on what remains, B tries", fsync)}}}
			part, err := s.runVariant(ctx, env, v, ttl)
			if err != nil {
				return nil, err
			}
			rep.Variants = append(rep.Variants, part.Variants...)
		}
	}
	return rep, nil
}

// policiesOf are the policies st runs under: its own alone when it names one (a
// WAITAOF grant is shaped for its policy), else every one asked for.
func policiesOf(st lab.Store, asked []string) []string {
	own := st.Spec().AppendFsync
	if own == "" {
		return asked
	}
	if slices.Contains(asked, own) {
		return []string{own}
	}
	return nil
}

func (s hostCrash) runVariant(ctx context.Context, env *lab.Env, v hostCrashVariant,
	ttl time.Duration) (*results.Report, error) {
	spec := v.strategy.Spec()
	spec.AppendFsync, spec.ForgetfulDisk = v.fsync, true
	topo, err := env.StartTopology(ctx, spec)
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	if _, ok := topo.Masters()[0].(topologies.HostCrashed); !ok {
		return nil, fmt.Errorf("host-crash: provider %s has no disk that forgets: run it with --provider process",
			topo.Provider())
	}
	return lab.RunTrials(ctx, env, s, []hostCrashVariant{v}, func(ctx context.Context, v hostCrashVariant,
		t *lab.Trial) error {
		return trial(ctx, topo, v, t, ttl)
	})
}

// trial grants A the lock, crashes the master's host at once and has B try on what
// the master kept. Judged once the master restarted and its disk said what it dropped.
func trial(ctx context.Context, topo topologies.Topology, v hostCrashVariant, t *lab.Trial, ttl time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute+ttl)
	defer cancel()
	master := topo.Masters()[0]
	la, err := v.strategy.Locker(ctx, topo, false)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer la.Close()
	a := lab.NewClient("A", la, t.Rec)
	res := lab.NewResource("resource", false, t.Rec)
	before, err := redisadmin.RunID(ctx, master.Addr())
	if err != nil {
		return lab.Failed("observe", err)
	}
	lease, err := a.Acquire(ctx, t.Key, ttl)
	if err != nil {
		return lab.FirstGrant(err)
	}
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	if _, err := nemesis.Inject(ctx, "host-crash", nemesis.Target{Topology: topo, Nodes: []topologies.Node{master},
		Recorder: t.Rec}); err != nil {
		return lab.Failed("nemesis", err)
	}
	if err := lab.ProveHostCrash(ctx, t, master, before); err != nil {
		return err
	}
	if err := sentinelrig.ProveKeyThenContest(ctx, t, lab.RedisKeys{}, topo, master, "the restarted "+master.Name(),
		a, res, lease); err != nil {
		return err
	}
	if time.Now().After(lease.ValidUntil) {
		return lab.Failed("timing", fmt.Errorf("A's lease ended before B was done: the %v TTL is too short here", ttl))
	}
	_ = a.Release(ctx, lease) // refused where B took the key: expected
	return nil
}
