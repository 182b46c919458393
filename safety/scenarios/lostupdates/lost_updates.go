package lostupdates

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// lostUpdates: the lock breaks (its holder pauses past its lease, the master fails
// over without the lock, Redlock nodes restart empty, the master's clock jumps) while
// A is in the middle of a change to an account row on a real PostgreSQL; B takes the
// lock and makes its own change; then A's write goes through its guard. The database
// is audited after every trial: which guard keeps the data correct when the lock does
// not? An unfenced atomic statement loses nothing but lets the stale holder write; a
// read-modify-write loses B's change; a check in the client before the write (check-
// then-write) loses it too; a fenced statement refuses the stale holder where the
// fence only grows, and refuses the honest one where a failover reissued it.
type lostUpdates struct{}

// lostUpdatesStarts: the account rows' PostgreSQL; the clock-jump break fakes the clock
// of the lock services it fits.
func lostUpdatesStarts() lab.Starts {
	return lab.Starts{Kinds: []backend.Kind{topologies.Postgres}, Clocks: func(v lab.Values, strategy string) bool {
		jump, _ := breakNamed(clockJump)
		return slices.Contains(v.Strings("breaks"), clockJump) && len(jump.storesOf([]string{strategy})) > 0
	}}
}

// lockBreak is one way the lock breaks, and the stores it can break: what it breaks
// (a lease's end, a failover, a quorum's node, a master's clock) is in the store.
type lockBreak struct {
	name string // as --param breaks spells it
	fits func(lab.Store) bool
	what string
}

var lockBreaks = []lockBreak{
	{"pause", leaseOfOneAuthority,
		"A stops (client-pause) for pause-factor x the granted lease in the middle of its change; B retries meanwhile and " +
			"is granted once the lease has run out"},
	{"failover", failsOverToAReplica,
		"the replicas lag (stopped, their links cut) from before A's first lease; in the middle of A's change " +
			"its master (a cluster's: the key's) is SIGKILLed; a replica that never saw A's lease (nor its INCR " +
			"fences) is promoted; B locks there"},
	{"redlock-restart", isFiveNodeRedlock,
		"A holds nodes 0-2 of 5 (3 and 4 are down); in the middle of its change node 2 restarts with no data and 3, 4 come " +
			"back empty; B wins nodes 2-4"},
	{clockJump, loneRedisMaster,
		"in the middle of A's change the master's clock (libfaketime) jumps forward twice the lease: A's key expires " +
			"early; B locks while A's lease still runs"},
}

// clockJump is the break that moves a clock, which preflight must know.
const clockJump = "clock-jump"

// leaseOfOneAuthority: one server or one agreeing group grants and ends the lease (a
// lone Redis master, a consensus store, the database), so a pause outlives it there and
// nothing else breaks it first.
func leaseOfOneAuthority(st lab.Store) bool {
	kind := st.Spec().Kind
	stores := linked.Catalog()
	return backend.KindIs[backend.Consensus](stores, kind) || backend.KindIs[backend.OwnFence](stores, kind) ||
		loneRedisMaster(st)
}

// loneRedisMaster: one Redis master and no replica, whose clock a fault can move.
func loneRedisMaster(st lab.Store) bool {
	kind := st.Spec().Kind
	return backend.KindIs[backend.CounterFence](linked.Catalog(), kind) &&
		!backend.KindIs[backend.Replication](linked.Catalog(), kind)
}

// failsOverToAReplica: sentinels, or the cluster bus for the key's master, promote an
// asynchronous replica that can be made to lag and then read.
func failsOverToAReplica(st lab.Store) bool {
	if _, ok := st.(failoverStore); !ok {
		return false
	}
	return lab.IsKeyedFailover(st) || backend.KindIs[backend.Failover](linked.Catalog(), st.Spec().Kind)
}

// isFiveNodeRedlock: the redlock-restart rig's five independent masters.
func isFiveNodeRedlock(st lab.Store) bool {
	spec := st.Spec().WithDefaults(linked.Catalog())
	return backend.KindIs[backend.IndependentMajority](linked.Catalog(), spec.Kind) && spec.Masters == redlockNodes
}

// defaultLockServices are the lock services run without --param strategies, one or two
// a break; the others that fit run when named (a Redis Cluster, say, which starts a
// fresh deployment per trial).
var defaultLockServices = []string{"single", "etcd", "zookeeper", pgAdvisory, "sentinel", "redlock"}

// allBreaks are the lock breaks and the lock-free writers' redelivery.
func allBreaks() []string { return append(lockBreakNames(), lockFreeRedelivery) }

// allStrategies are the lock services and the lock-free writers.
func allStrategies() []string { return append(lostUpdatesStrategies(), lockFreeModes...) }

// defaultStrategies are the default lock services this program registered and the
// lock-free writers.
func defaultStrategies() []string {
	return slices.DeleteFunc(availableStrategies(), func(s string) bool {
		return !slices.Contains(defaultLockServices, s) && !slices.Contains(lockFreeModes, s)
	})
}

// availableStrategies are those of allStrategies this program can run: the lock
// services registered (ZooKeeper's only when backends/zookeeper/zklock is imported), pg-advisory
// (the account's own server) and the lock-free writers.
func availableStrategies() []string {
	var out []string
	for _, st := range allStrategies() {
		_, err := storeOf(st)
		if err == nil || slices.Contains(lockFreeModes, st) {
			out = append(out, st)
		}
	}
	return out
}

// breakNamed is the lock break --param breaks calls name; false for none (redelivery).
func breakNamed(name string) (lockBreak, bool) {
	i := slices.IndexFunc(lockBreaks, func(b lockBreak) bool { return b.name == name })
	if i < 0 {
		return lockBreak{}, false
	}
	return lockBreaks[i], true
}

func lockBreakNames() []string {
	var out []string
	for _, b := range lockBreaks {
		out = append(out, b.name)
	}
	return out
}

// lostUpdatesStrategies are the lock services some break fits: the default ones first,
// in their order, then the others sorted.
func lostUpdatesStrategies() []string {
	fitsSome := func(st lab.Store) bool {
		return slices.ContainsFunc(lockBreaks, func(b lockBreak) bool { return b.fits(st) })
	}
	out := slices.Clone(defaultLockServices)
	for _, name := range lab.StrategiesWhere(fitsSome) {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// storesOf are the strategies among names that brk fits, in their order.
func (brk lockBreak) storesOf(names []string) []string {
	var out []string
	for _, name := range names {
		if st, err := storeOf(name); err == nil && brk.fits(st) {
			out = append(out, name)
		}
	}
	return out
}

// storeOf is the store a strategy runs on: pg-advisory's is the account's own server.
func storeOf(strategy string) (lab.Store, error) {
	if strategy == pgAdvisory {
		return pgLockStore{}, nil
	}
	return lab.StoreFor(strategy)
}

// Fence sources: the lock service's own, or a PostgreSQL sequence beside the rows.
const (
	fenceOfLock = "lock"
	fencePGSeq  = "pg-sequence"
)

// accountGuard is a write guard of the account resource: one of resources/pgaccount's
// modes, read once from its name.
type accountGuard struct {
	base   string // unfenced, fenced, check-then-write, read-modify-write
	outbox bool   // a side effect is sent, in a transaction of its own, before the write
}

var accountGuardBases = []string{"unfenced", "fenced", "check-then-write", "read-modify-write"}

// AccountModes are the guard modes lost-updates writes the account row with, in the
// order of resources/pgaccount's ModeNames: each guard, then each with "+outbox".
func AccountModes() []string {
	var out []string
	for _, outbox := range []bool{false, true} {
		for _, b := range accountGuardBases {
			out = append(out, accountGuard{b, outbox}.String())
		}
	}
	return out
}

func (g accountGuard) String() string {
	if g.outbox {
		return g.base + "+outbox"
	}
	return g.base
}

// needsFence: the guard compares the writer's token with the row's fence.
func (g accountGuard) needsFence() bool { return g.base == "fenced" || g.base == "check-then-write" }

func (g accountGuard) what() string {
	s := map[string]string{
		"unfenced": "UPDATE balance = balance - amount (one atomic statement, no token)",
		"fenced":   "UPDATE ... WHERE fence < token, setting fence = token (the database refuses a stale token)",
		"check-then-write": "SELECT the row, compare its fence with the token in the client, then UPDATE the computed " +
			"balance and the token",
		"read-modify-write": "SELECT the balance, compute, UPDATE balance = computed (only the lock guards it)",
	}[g.base]
	if g.outbox {
		s += "; first an outbox row (a side effect) in a transaction of its own"
	}
	return s
}

func parseAccountGuard(name string) accountGuard {
	base, outbox := strings.CutSuffix(name, "+outbox")
	return accountGuard{base, outbox}
}

// breaksHelp names each break with the lock services it fits.
func breaksHelp() string {
	var out []string
	for _, b := range lockBreaks {
		out = append(out, fmt.Sprintf("%s (%s)", b.name, strings.Join(b.storesOf(availableStrategies()), ", ")))
	}
	return strings.Join(out, ", ")
}

// lostUpdatesVariant is one guard on one fence source of one broken lock service.
type lostUpdatesVariant struct {
	lab.Variant
	brk      lockBreak
	strategy string
	fence    string // fenceOfLock or fencePGSeq
	guard    accountGuard
	// lockFence: every grant of the lock service passes through its fence.
	lockFence bool
}

// hasFence says whether the variant writes with a token at all.
func (v lostUpdatesVariant) hasFence() bool { return v.fence == fencePGSeq || v.lockFence }

// monotonic says whether the fence only grows through the break: every source but a
// Redis INCR through a failover that lost it.
func (v lostUpdatesVariant) monotonic() bool {
	return v.fence == fencePGSeq || v.brk.name != "failover"
}

// lostUpdatesClaims are what each guard's mechanism makes certain, once the lock is
// proved broken with A's read done (read-first guards) and B's change applied or
// refused before A writes. Every variant has two holders inside at once.
func lostUpdatesClaims(v lostUpdatesVariant) []results.Claim {
	cs := []results.Claim{results.Always(results.Violations)}
	escaped := results.Holds(results.EscapedSideEffects) // nothing refused: no side effect escapes
	switch {
	case v.guard.base == "unfenced":
		// One atomic statement loses nothing: it just lets the stale holder write.
		cs = append(cs, results.Holds(results.LostUpdates), results.Always(results.StaleApplied),
			results.Holds(results.HonestRejected))
	case v.guard.base == "read-modify-write":
		// A computed from the row before B's change and writes over it.
		cs = append(cs, results.Always(results.LostUpdates), results.Always(results.StaleApplied),
			results.Holds(results.HonestRejected))
	case v.guard.base == "check-then-write":
		// A's check passed before B wrote: A overwrites B's change (or, with a reissued
		// fence, B's own check refused it). Either way one change is lost.
		cs = append(cs, results.Always(results.LostUpdates), results.Always(results.StaleApplied))
		if v.monotonic() {
			cs = append(cs, results.Holds(results.HonestRejected))
		} else {
			escaped = results.Claim{} // B refused or not: measured
		}
	case v.monotonic(): // fenced, fence only grows: B's token is above A's
		cs = append(cs, results.Holds(results.LostUpdates), results.Always(results.StaleRefused),
			results.Holds(results.StaleApplied), results.Holds(results.HonestRejected))
		escaped = results.Always(results.EscapedSideEffects) // A's side effect was sent
	default: // fenced, Redis INCR reissued by the failover: B's token is not above the row's
		cs = append(cs, results.Breaks(results.LostUpdates), results.Breaks(results.HonestRejected))
		// B's token is either at most the row's (B refused) or A's own (A refused).
		escaped = results.Always(results.EscapedSideEffects)
	}
	if v.guard.outbox && escaped.Measure != "" {
		cs = append(cs, escaped)
	}
	return cs
}

// lostUpdatesPlan is one broken lock service and its variants.
type lostUpdatesPlan struct {
	brk      lockBreak
	strategy string
	variants []lostUpdatesVariant
}

// plan crosses the params into variants. A guard that needs a fence is no variant
// where the fence source has none; asked for explicitly (guards, fences and the lock
// service all given), it is a *ParamError, as is a lock service no chosen break runs on.
func (s lostUpdates) plan(env *lab.Env, p lab.Values) ([]lostUpdatesPlan, []lockFreeVariant, error) {
	explicit := func(name string) bool { _, ok := env.Params[name]; return ok }
	chosen := p.Strings("strategies")
	used := map[string]bool{}
	var plans []lostUpdatesPlan
	for _, name := range p.Strings("breaks") {
		brk, ok := breakNamed(name)
		if !ok {
			continue // redelivery: lock-free writers only
		}
		strategies := brk.storesOf(slices.DeleteFunc(allStrategies(),
			func(st string) bool { return !slices.Contains(chosen, st) }))
		lockFreeToo := brk.name == lockFreePause && len(s.lockFreePlan(p)) > 0
		if len(strategies) == 0 && !lockFreeToo && explicit("breaks") && explicit("strategies") {
			return nil, nil, &lab.ParamError{Name: "strategies", Value: env.Params["strategies"],
				Want: fmt.Sprintf("a strategy that break %s runs on (%s)", brk.name,
					strings.Join(brk.storesOf(availableStrategies()), ", "))}
		}
		for _, st := range strategies {
			used[st] = true
			plan := lostUpdatesPlan{brk: brk, strategy: st}
			store, err := storeOf(st)
			if err != nil {
				return nil, nil, err
			}
			for _, fence := range p.Strings("fences") {
				for _, g := range p.Strings("guards") {
					v := lostUpdatesVariant{brk: brk, strategy: st, fence: fence, guard: parseAccountGuard(g),
						lockFence: lab.FenceOrdersEveryGrant(store)}
					if v.guard.needsFence() && !v.hasFence() {
						if explicit("guards") && explicit("fences") && (explicit("breaks") || explicit("strategies")) {
							return nil, nil, &lab.ParamError{Name: "guards", Value: env.Params["guards"],
								Want: fmt.Sprintf("guards that fit fences=%s: guard %s needs a fence; %s has none (use fences=%s)",
									env.Params["fences"], g, st, fencePGSeq)}
						}
						continue
					}
					plan.variants = append(plan.variants, s.variant(v))
				}
			}
			if len(plan.variants) > 0 {
				plans = append(plans, plan)
			}
		}
	}
	lockFree := s.lockFreePlan(p)
	for _, v := range lockFree {
		used[v.mode] = true
	}
	if explicit("strategies") {
		for _, st := range chosen {
			if !used[st] {
				return nil, nil, &lab.ParamError{Name: "strategies", Value: env.Params["strategies"],
					Want: fmt.Sprintf("strategies the chosen breaks (%s) run on: %s runs on none of them",
						strings.Join(p.Strings("breaks"), ", "), st)}
			}
		}
	}
	if len(plans) == 0 && len(lockFree) == 0 {
		return nil, nil, &lab.ParamError{Name: "guards", Value: strings.Join(p.Strings("guards"), ","),
			Want: "guards that make a variant with the chosen breaks and fences (every one of these needs a fence the lock " +
				"services have not)"}
	}
	return plans, lockFree, nil
}

func (lostUpdates) variant(v lostUpdatesVariant) lostUpdatesVariant {
	fence := "none (no fence of its own that every grant passes through, as Redlock's; the guard takes no token)"
	switch {
	case v.fence == fencePGSeq:
		fence = "nextval of a PostgreSQL sequence on the account's database, right after each grant"
	case v.hasFence():
		fence = lockFenceSource(v.strategy)
	}
	v.Variant = lab.Variant{Variant: &results.Variant{
		Name:        strings.Join([]string{v.brk.name, v.strategy, v.fence, v.guard.String()}, "/"),
		Description: fmt.Sprintf("%s: %s. Fence: %s. Guard: %s.", v.strategy, v.brk.what, fence, v.guard.what()),
		Params: map[string]string{"break": v.brk.name, "strategy": v.strategy, "fence": v.fence,
			"guard": v.guard.String()},
		Measure: results.LostUpdates,
		Claims:  lostUpdatesClaims(v),
	}}
	return v
}

// lockFenceSource names the lock service's own fence.
func lockFenceSource(strategy string) string {
	st, err := storeOf(strategy)
	if err != nil {
		return "the lock's own"
	}
	return st.FenceSource()
}

func (s lostUpdates) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	plans, lockFree, err := s.plan(env, p)
	if err != nil {
		return nil, err
	}
	open, err := registeredAccounts()
	if err != nil {
		return nil, err
	}
	for _, plan := range plans {
		if _, err := locks.TopologyFor(plan.strategy); err != nil {
			return nil, fmt.Errorf(
				"%w (etcd registers with backends/etcd/etcdlock, pg-advisory with backends/postgres/pglock)", err)
		}
	}
	pg, err := env.StartTopology(ctx, backend.Spec{Kind: topologies.Postgres})
	if err != nil {
		return nil, err
	}
	defer pg.Close()
	db, ok := pg.(interface{ DSN() string })
	if !ok {
		return nil, fmt.Errorf("topology from provider %s has no DSN", pg.Provider())
	}
	cfg := lostUpdatesConfig{ttl: p.Duration("ttl"), pauseFactor: p.Float("pause-factor"), pg: pg, dsn: db.DSN(),
		open: open}
	rep := env.NewReport()
	for _, plan := range plans {
		rig, err := newBreakRig(ctx, env, plan.brk.name, plan.strategy, cfg)
		if err != nil {
			return nil, err
		}
		part,
			err := lab.RunTrials(ctx, env, plan.variants,
			func(ctx context.Context, v lostUpdatesVariant, t *lab.Trial) error {
				return lostUpdatesTrial(ctx, rig, cfg, v, t)
			})
		if n := rig.close(); n != "" {
			for _, v := range plan.variants {
				v.Note(n)
			}
		}
		if err != nil {
			return nil, err
		}
		rep.Variants = append(rep.Variants, part.Variants...)
	}
	if len(lockFree) > 0 {
		part, err := lab.RunTrials(ctx, env, lockFree, func(ctx context.Context, v lockFreeVariant, t *lab.Trial) error {
			return lockFreeTrial(ctx, cfg, v, t)
		})
		if err != nil {
			return nil, err
		}
		rep.Variants = append(rep.Variants, part.Variants...)
	}
	return rep, nil
}

// lockFreePlan is the lock-free writers chosen, under the chosen faults that reach
// them (pause, redelivery).
func (lostUpdates) lockFreePlan(p lab.Values) []lockFreeVariant {
	var faults, modes []string
	for _, b := range p.Strings("breaks") {
		if b == lockFreePause || b == lockFreeRedelivery {
			faults = append(faults, b)
		}
	}
	for _, st := range p.Strings("strategies") {
		if slices.Contains(lockFreeModes, st) {
			modes = append(modes, st)
		}
	}
	return lockFreeVariants(faults, modes)
}
