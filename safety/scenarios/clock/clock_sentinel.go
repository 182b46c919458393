package clock

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// sentinelClockSkew: since Redis 7 a TTL replicates as an absolute time (SET ... PXAT),
// so a promoted replica expires the lock key by its own wall clock. With the replicas'
// clocks ahead of the master's by more than what is left of the TTL, the key is gone
// the moment a replica is promoted, and B locks while A still believes it holds; a
// clock behind only keeps the key longer. The key is on both replicas (WAIT 2) before
// the master is killed, so replication loss plays no part. Process provider only:
// miniredis has no replication.
type sentinelClockSkew struct{}

// fitsSentinelClockSkew: sentinels promote a replica that got the key by replication
// (WAIT 2 on the master, B's SET NX on the promoted node), and the store reads the key there.
func fitsSentinelClockSkew(s lab.Store) bool {
	_, reads := s.(lab.FailoverReader)
	return reads && lab.PromotesRedisReplica(s)
}

type sentinelSkewVariant struct {
	lab.Variant
	replicaOffset time.Duration // both replicas' clocks against the master's true one
}

func (s sentinelClockSkew) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	ttl, offset, promotion := p.Duration("ttl"), p.Duration("offset"), p.Duration("promotion-timeout")
	failover := p.Store("strategies").(lab.FailoverReader) // fitsSentinelClockSkew checked it
	v := func(name string, off time.Duration, claims ...results.Claim) sentinelSkewVariant {
		return sentinelSkewVariant{lab.Variant{Variant: &results.Variant{Name: name, Measure: results.Violations,
			Claims: claims,
			Params: map[string]string{"replica_offset": off.String(), "ttl": ttl.String()},
			Description: fmt.Sprintf("both replicas' clocks are %v from the master's; A locks (TTL %v), WAIT 2, the master is "+
				"SIGKILLed; B tries on the promoted replica", off, ttl)}}, off}
	}
	// Ahead by less than the TTL, the key survives if the failover is quick enough:
	// a measurement, not a claim.
	var ahead []results.Claim
	if offset >= ttl {
		ahead = append(ahead, results.Breaks(results.Violations))
	}
	variants := []sentinelSkewVariant{
		v("replica-ahead", offset, ahead...),
		v("replica-behind", -offset, results.Holds(results.Violations)),
		v("true-clocks", 0, results.Holds(results.Violations)),
	}
	return lab.RunTrials(ctx, env, variants, func(ctx context.Context, v sentinelSkewVariant, t *lab.Trial) error {
		return s.trial(ctx, env, failover, v, t, ttl, promotion)
	})
}

func (s sentinelClockSkew) trial(ctx context.Context, env *lab.Env, st lab.FailoverReader, v sentinelSkewVariant,
	t *lab.Trial, ttl, promotion time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute+ttl)
	defer cancel()
	replicaClock := clocks.Model{Offset: v.replicaOffset}
	spec := st.Spec()
	spec.Replicas, spec.DownAfter, spec.FailoverTimeout = 2, time.Second, 3*time.Second
	if !replicaClock.IsTrue() {
		spec.Clocks = map[string]clocks.Model{"replica-0": replicaClock, "replica-1": replicaClock}
	}
	t.Input("replica_offset_ms", lab.Millis(v.replicaOffset))
	topo, err := env.StartTopology(ctx, spec)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer topo.Close()
	master, err := st.Primary(ctx, topo)
	if err != nil {
		return lab.Failed("setup", err)
	}
	res := lab.NewResource("resource", false, t.Rec)
	la, err := st.Locker(ctx, topo, false)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer la.Close()
	a := lab.NewClient("A", la, t.Rec)
	lease, err := a.Acquire(ctx, t.Key, ttl)
	if err != nil {
		return lab.FirstGrant(err)
	}
	// Both replicas must have the key: then only their clocks can lose it.
	c := lab.PlainClient(master.Addr())
	acked, err := c.Do(ctx, "WAIT", 2, 5000).Int()
	c.Close()
	if err != nil {
		return lab.Failed("wait", err)
	}
	if acked < 2 {
		return lab.NoFault("WAIT 2: %d replicas acknowledged A's key within 5 s", acked)
	}
	var clockLines []string
	for _, r := range topo.Replicas() {
		m, err := lab.ExpectClock(r, replicaClock, nil)
		if err != nil {
			return err
		}
		_, line, err := lab.AwaitOffset(ctx, m)
		if err != nil {
			return err
		}
		clockLines = append(clockLines, line)
	}
	t.Prove("both replicas acknowledged A's key (WAIT 2 = %d); %s", acked, strings.Join(clockLines, ", "))
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	promoted, err := lab.KillPrimary(ctx, t, st, topo, master, promotion)
	if err != nil {
		return err
	}
	if _, err := lab.ObserveKey(ctx, t, st, topo, promoted, t.Key); err != nil {
		return err
	}
	// B talks to the node the sentinels promoted, not to whichever one a sentinel
	// client would find first.
	lb, err := locks.AtAddrs(ctx, "single", []string{promoted.Addr()}, locks.Options{})
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer lb.Close()
	b := lab.NewClient("B", lb, t.Rec)
	tryCtx, tryCancel := context.WithTimeout(ctx, time.Second)
	leaseB, err := b.AcquireUntil(tryCtx, t.Key, ttl, 20*time.Millisecond)
	tryCancel()
	var bErr error
	switch {
	case err == nil:
		b.Work(ctx, res, leaseB, nil)
	case errors.Is(err, locks.ErrNotAcquired), errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		// refused for its whole second: the key held
	default:
		bErr = lab.Failed("second-acquire", err)
	}
	if bErr != nil {
		return bErr
	}
	if time.Now().After(lease.ValidUntil) {
		return lab.NoFault("A's lease ended before B was done: B's attempts were not inside A's lease (raise ttl)")
	}
	a.Leave(res, lease) // A stops here, inside its lease
	return nil
}
