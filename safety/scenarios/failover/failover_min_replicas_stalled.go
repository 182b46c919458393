package failover

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// stalledMode is min-replicas-to-write where it can bite: every replica lags past
// min-replicas-max-lag before the grant. Redis counts a replica's lag in whole seconds
// since its last REPLCONF ACK (sent once a second), so the replicas are SIGSTOPped,
// acks and all, until the master counts none of them good.
const stalledMode = "min-replicas-stalled"

// stalledVariant has no kill delay: a refused grant leaves nothing to lose.
func stalledVariant(maxLag time.Duration) *failoverVariant {
	return &failoverVariant{Variant: lab.Variant{Variant: &results.Variant{
		Name: stalledMode,
		Description: fmt.Sprintf("min-replicas-to-write 1, min-replicas-max-lag %v on every data node; every replica "+
			"SIGSTOPped until the master counts no good replica (min_slaves_good_slaves:0); then A's SET NX PX through "+
			"sentinel: "+
			"grants refused (NOREPLICAS) counted, with the key read back absent. A refused grant is no lock, so none can be "+
			"lost here: lost_locks (0) is not its measure, and no claim reads it", maxLag),
		Params:  map[string]string{"mode": stalledMode, "max_lag": maxLag.String()},
		Measure: results.GrantsRefused,
		Claims:  []results.Claim{results.Always(results.GrantsRefused)},
	}}, guard: sentinelrig.Guard{Mode: stalledMode, MinReplicas: true}}
}

// stalledTrial: the master counts no good replica, then A asks for the lock.
func stalledTrial(ctx context.Context, r *sentinelrig.Run, topo topologies.Topology, maxLag time.Duration,
	t *lab.Trial) error {
	st := r.Store
	primary, err := st.Primary(ctx, topo)
	if err != nil {
		return lab.Failed("setup", err)
	}
	if err := sentinelrig.ConfigureGuard(ctx, topo, sentinelrig.Guard{MinReplicas: true}); err != nil {
		return lab.Failed("setup", err)
	}
	if err := setMaxLag(ctx, topo, maxLag); err != nil {
		return lab.Failed("setup", err)
	}
	locker, err := st.Locker(ctx, topo, false)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer locker.Close()
	a := lab.NewClient("A", locker, t.Rec)
	replicas := lab.ReplicasOf(topo, primary)
	heal, err := nemesis.Inject(ctx, "node-pause", nemesis.Target{Nodes: replicas, Recorder: t.Rec})
	if err != nil {
		if heal != nil {
			heal(context.Background())
		}
		return lab.Failed("nemesis", err)
	}
	defer heal(context.Background()) // stopped replicas must not outlive the trial
	stalled := time.Now()
	if err := awaitNoGoodReplica(ctx, t, primary, maxLag, maxLag+5*time.Second); err != nil {
		return err
	}
	t.Input("stall_to_no_good_replica_ms", lab.Millis(time.Since(stalled)))
	lease, refusal := a.Acquire(ctx, t.Key, time.Minute)
	switch {
	case refusal == nil:
		t.Count(results.GrantsRefused, 0)
		t.Prove("the master %s granted A's lock with no good replica", primary.Name())
		_ = a.Release(ctx, lease)
		return nil
	case !strings.Contains(refusal.Error(), "NOREPLICAS"):
		if errors.Is(refusal, locks.ErrNotAcquired) {
			return lab.Failed("first-acquire", fmt.Errorf("the key was already held: %w", refusal))
		}
		return lab.Failed("first-acquire", refusal)
	}
	c := lab.PlainClient(primary.Addr())
	defer c.Close()
	n, err := c.Exists(ctx, t.Key).Result()
	if err != nil {
		return lab.Failed("observe", fmt.Errorf("EXISTS on %s: %w", primary.Name(), err))
	}
	if n != 0 {
		return lab.Failed("observe",
			fmt.Errorf("the master %s refused A's SET (%v) yet holds %s", primary.Name(), refusal, t.Key))
	}
	t.Count(results.GrantsRefused, 1)
	t.Prove("the master %s refused A's SET: %v; %s is absent there: no lock was granted", primary.Name(), refusal, t.Key)
	return nil
}

// setMaxLag sets min-replicas-max-lag on every data node (ConfigureGuard's is 10 s,
// above any lag the other modes run).
func setMaxLag(ctx context.Context, topo topologies.Topology, maxLag time.Duration) error {
	for _, node := range append(topo.Masters(), topo.Replicas()...) {
		c := lab.PlainClient(node.Addr())
		err := c.ConfigSet(ctx, "min-replicas-max-lag", fmt.Sprint(int(maxLag/time.Second))).Err()
		c.Close()
		if err != nil {
			return fmt.Errorf("%s: CONFIG SET min-replicas-max-lag: %w", node.Name(), err)
		}
	}
	return nil
}

// awaitNoGoodReplica polls the master's INFO replication until it counts no good
// replica (it refreshes that count once a second), and proves it with each lag.
func awaitNoGoodReplica(ctx context.Context, t *lab.Trial, master topologies.Node, maxLag,
	timeout time.Duration) error {
	c := lab.PlainClient(master.Addr())
	defer c.Close()
	deadline := time.Now().Add(timeout)
	last := "nothing read yet"
	for time.Now().Before(deadline) {
		raw, err := c.Info(ctx, "replication").Result()
		if err != nil {
			return lab.Failed("observe", fmt.Errorf("INFO replication on %s: %w", master.Name(), err))
		}
		good := infoField(raw, "min_slaves_good_slaves")
		if good == "0" {
			info, err := redisadmin.Replication(ctx, master.Addr())
			if err != nil {
				return lab.Failed("observe", fmt.Errorf("INFO replication on %s: %w", master.Name(), err))
			}
			var lags []string
			for _, r := range info.Replicas {
				lags = append(lags, fmt.Sprintf("%s lag %d s", r.Addr, r.Lag))
			}
			t.Prove("the master %s counts no good replica (min_slaves_good_slaves:0, min-replicas-max-lag %v): %s",
				master.Name(), maxLag, strings.Join(lags, ", "))
			return nil
		}
		last = "min_slaves_good_slaves:" + good
		if err := lab.Sleep(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
	return lab.NoFault("the master %s still counted a good replica %v after the replicas stopped: %s", master.Name(),
		timeout, last)
}

// infoField is one field of an INFO reply, "" when absent.
func infoField(raw, name string) string {
	for _, line := range strings.Split(raw, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+":"); ok {
			return v
		}
	}
	return ""
}
