package sentinelrig

import (
	"context"
	"fmt"
	"sync"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// Run is one run of the scenario: its params, the store it reaches the
// deployments through, and the deployments its trials borrow.
type Run struct {
	Config
	// Store is what the rig asks of its store: a primary that fails over, and the key read on it.
	Store                              lab.FailoverReader
	LossDeployments, ZombieDeployments *topologies.SentinelPool
}

// Fits says whether the rig's deployments can be s's: sentinels promote a replica of
// its master (Failover, Replication), and the rig pauses, kills and configures its
// nodes with Redis commands (CLIENT PAUSE, CONFIG SET min-replicas-to-write).
func Fits(s lab.Store) bool {
	_, reads := s.(lab.FailoverReader)
	return reads && lab.PromotesRedisReplica(s)
}

// DefaultStrategy is the rig's strategy when its scenario names none: the first, in
// the registry's order of strategies, whose store fits (positions never move, so a
// store registered later does not displace it).
func DefaultStrategy() (string, error) {
	for _, st := range linked.Catalog().Strategies() {
		if s, err := lab.StoreFor(st.Name); err == nil && Fits(s) {
			return st.Name, nil
		}
	}
	return "", fmt.Errorf("no registered strategy's store fits the sentinel deployments (a master whose sentinels " +
		"promote a replica, over Redis): import its backends/<store> package")
}

// storeOf is the store of the strategy c names, or of DefaultStrategy.
func storeOf(c Config) (lab.FailoverReader, error) {
	strategy := c.Strategy
	if strategy == "" {
		var err error
		if strategy, err = DefaultStrategy(); err != nil {
			return nil, err
		}
	}
	st, err := lab.StoreFor(strategy)
	if err != nil {
		return nil, err
	}
	if !Fits(st) {
		return nil, fmt.Errorf("strategy %s: its store cannot be the sentinel deployments (a master whose sentinels "+
			"promote a replica, over Redis)", strategy)
	}
	return st.(lab.FailoverReader), nil
}

// NewRun starts the deployments c asks for (fresh per trial, or pools re-formed between trials).
func NewRun(env *lab.Env, c Config) (*Run, error) {
	st, err := storeOf(c)
	if err != nil {
		return nil, err
	}
	r := &Run{Config: c, Store: st}
	size := 0
	if c.Reuse {
		size = c.Deployments * c.parallel()
	}
	starter := func(zombie bool) func(ctx context.Context) (topologies.Topology, error) {
		return func(ctx context.Context) (topologies.Topology, error) {
			topo, err := env.StartTopology(ctx, c.spec(st.Spec()))
			if err != nil {
				return nil, err
			}
			if err := redisadmin.TuneSentinels(ctx, topo, c.timers(zombie)); err != nil {
				topo.Close()
				return nil, err
			}
			return topo, nil
		}
	}
	r.LossDeployments = topologies.NewSentinelPool(size, c.ReformTimeout, starter(false))
	// Zombie trials last as long as the zombie does (seconds): one deployment per trial
	// running at once is enough.
	r.ZombieDeployments = topologies.NewSentinelPool(min(size, c.parallel()), c.ReformTimeout, starter(true))
	return r, nil
}

// Close stops every deployment of the run.
func (r *Run) Close() {
	r.LossDeployments.Close()
	r.ZombieDeployments.Close()
}

// Borrow runs fn on a healthy deployment from pool and gives it back to re-form.
func Borrow(ctx context.Context, pool *topologies.SentinelPool, use *DeploymentUse,
	fn func(topologies.Topology) error) error {
	dep, err := pool.Take(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return lab.Failed("setup", err)
	}
	use.count(dep)
	defer pool.Return(dep)
	return fn(dep.Topology)
}

// ConfigureGuard sets min-replicas-to-write on every data node, on or off: a re-used
// deployment carries the last trial's setting.
func ConfigureGuard(ctx context.Context, topo topologies.Topology, g Guard) error {
	n := 0
	if g.MinReplicas {
		n = 1
	}
	for _, node := range append(topo.Masters(), topo.Replicas()...) {
		c := lab.PlainClient(node.Addr())
		err := c.ConfigSet(ctx, "min-replicas-to-write", fmt.Sprint(n)).Err()
		if err == nil {
			err = c.ConfigSet(ctx, "min-replicas-max-lag", "10").Err()
		}
		c.Close()
		if err != nil {
			return fmt.Errorf("%s: CONFIG SET min-replicas: %w", node.Name(), err)
		}
	}
	return nil
}

// DeploymentUse counts where a variant's trials got their deployments; trials running
// side by side count in it at once.
type DeploymentUse struct {
	mu                        sync.Mutex
	fresh, reformed, replaced int
	firstReplacement          string
	reformMs                  results.Distribution
}

func (u *DeploymentUse) count(b *topologies.Borrowed) {
	u.mu.Lock()
	defer u.mu.Unlock()
	switch {
	case b.Reformed != nil:
		u.reformed++
		u.reformMs.Add(lab.Millis(b.Reformed.Took))
	case b.FreshAfter != "":
		u.replaced++
		if u.firstReplacement == "" {
			u.firstReplacement = b.FreshAfter
		}
	default:
		u.fresh++
	}
}

// Note says how the variant's trials got their deployments.
func (u *DeploymentUse) Note() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	s := fmt.Sprintf("deployments: %d trials on a re-formed one, %d on a fresh one, %d on a fresh one replacing a "+
		"deployment that did not re-form in time", u.reformed, u.fresh, u.replaced)
	if u.reformMs.N > 0 {
		s += fmt.Sprintf("; re-form p50 %.0f ms, max %.0f ms", u.reformMs.P50, u.reformMs.Max)
	}
	if u.firstReplacement != "" {
		s += "; first replaced because: " + u.firstReplacement
	}
	return s
}
