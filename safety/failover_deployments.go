package safety

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// failoverRun is one run of the scenario: its params, the store it reaches the
// deployments through, and the deployments its trials borrow.
type failoverRun struct {
	failoverConfig
	store interface {
		lab.Failover
		lab.KeyReader
	}
	lossDeployments, zombieDeployments *topologies.SentinelPool
}

func newFailoverRun(env *lab.Env, c failoverConfig) (*failoverRun, error) {
	st, err := lab.StoreFor("sentinel")
	if err != nil {
		return nil, err
	}
	r := &failoverRun{failoverConfig: c}
	var ok bool
	if r.store, ok = st.(interface {
		lab.Failover
		lab.KeyReader
	}); !ok {
		return nil, fmt.Errorf("the sentinel store cannot fail over and read keys")
	}
	size := 0
	if c.reuse {
		size = c.deployments
	}
	starter := func(zombie bool) func(ctx context.Context) (topologies.Topology, error) {
		return func(ctx context.Context) (topologies.Topology, error) {
			topo, err := env.StartTopology(ctx, c.spec())
			if err != nil {
				return nil, err
			}
			if err := topologies.TuneSentinels(ctx, topo, c.timers(zombie)); err != nil {
				topo.Close()
				return nil, err
			}
			return topo, nil
		}
	}
	r.lossDeployments = topologies.NewSentinelPool(size, c.reformTimeout, starter(false))
	// Zombie trials last as long as the zombie does (seconds): one deployment is enough.
	r.zombieDeployments = topologies.NewSentinelPool(min(size, 1), c.reformTimeout, starter(true))
	return r, nil
}

func (r *failoverRun) close() {
	r.lossDeployments.Close()
	r.zombieDeployments.Close()
}

// borrow runs fn on a healthy deployment from pool and gives it back to re-form.
func borrow(ctx context.Context, pool *topologies.SentinelPool, use *deploymentUse, fn func(topologies.Topology) error) error {
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

// configureGuard sets min-replicas-to-write on every data node, on or off: a re-used
// deployment carries the last trial's setting.
func configureGuard(ctx context.Context, topo topologies.Topology, g failoverGuard) error {
	n := 0
	if g.minReplicas {
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

// deploymentUse counts where a variant's trials got their deployments.
type deploymentUse struct {
	fresh, reformed, replaced int
	firstReplacement          string
	reformMs                  results.Distribution
}

func (u *deploymentUse) count(b *topologies.Borrowed) {
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

func (u deploymentUse) note() string {
	s := fmt.Sprintf("deployments: %d trials on a re-formed one, %d on a fresh one, %d on a fresh one replacing a deployment that did not re-form in time", u.reformed, u.fresh, u.replaced)
	if u.reformMs.N > 0 {
		s += fmt.Sprintf("; re-form p50 %.0f ms, max %.0f ms", u.reformMs.P50, u.reformMs.Max)
	}
	if u.firstReplacement != "" {
		s += "; first replaced because: " + u.firstReplacement
	}
	return s
}
