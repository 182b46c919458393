package partition

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// clusterWatch follows a cluster trial from the cut: it probes the cut master's grants
// until it refuses, proves the partition from both sides (the cut master's own
// cluster_state and a majority master's flag on it), waits for the promotion, proves
// A's place, lets B lock on the promoted replica, and heals once the cut master refused
// and B is granted or the cut has held cut-hold past the promotion.
type clusterWatch struct {
	tr    clusterSplitTrial
	probe *grantProbe
	old   topologies.Node
	part  topologies.Partitioner
	dialA dialFunc
	res   *lab.Resource
	cutAt time.Time

	minorityDown, markedFail, promoted, healed, checked time.Time
	next                                                topologies.Node
	reached                                             bool
	bDone                                               chan bResult // B's outcome, once it is started
	b                                                   *bResult     // B granted
}

type promotion struct {
	next topologies.Node
	at   time.Time
	err  error
}

// clusterBPatience: B may wait for the heal and the old master's rejoining as a replica.
const clusterBPatience = 30 * time.Second

func (w *clusterWatch) run(ctx context.Context) (bResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the promotion wait and B when the watch fails
	promo := make(chan promotion, 1)
	go func() {
		pctx, stop := context.WithTimeout(ctx, w.tr.c.promotionTimeout)
		defer stop()
		next, err := w.tr.v.store.AwaitPromotion(pctx, w.tr.topo, w.old)
		promo <- promotion{next, time.Now(), err}
	}()
	for {
		done, err := w.step(ctx, promo)
		if err == nil && !done {
			err = lab.Sleep(ctx, splitProbeInterval)
		}
		if err == nil && !done {
			continue
		}
		w.abandon()
		if err != nil {
			if w.b != nil {
				w.b.close()
			}
			return bResult{}, err
		}
		return *w.b, nil
	}
}

// step is one tick of the watch: done once B is granted and the partition healed.
func (w *clusterWatch) step(ctx context.Context, promo chan promotion) (bool, error) {
	c := w.tr.c
	if w.probe.refusal == "" {
		if err := w.probe.grant(ctx); err != nil {
			return false, err
		}
	}
	if time.Since(w.checked) >= 100*time.Millisecond {
		if err := w.observe(ctx); err != nil {
			return false, err
		}
	}
	select {
	case p := <-promo:
		if err := w.promotedTo(ctx, p); err != nil {
			return false, err
		}
	default:
	}
	proven := !w.minorityDown.IsZero() && !w.markedFail.IsZero()
	if !proven && time.Since(w.cutAt) >= c.promotionTimeout {
		return false, lab.NoFault("the partition was not seen from both sides %v after the cut (the cut master's state "+
			"fail: %v; flagged fail by the majority: %v)",
			c.promotionTimeout, !w.minorityDown.IsZero(), !w.markedFail.IsZero())
	}
	if w.next != nil && !w.reached && (w.probe.refusal != "" || w.b != nil || time.Since(w.promoted) >= c.cutHold) {
		nodes := w.tr.topo.Nodes()
		if err := proveReach(ctx, w.tr.t, "A", w.dialA, nodes, map[int]bool{index(nodes, w.old): true}); err != nil {
			return false, err
		}
		w.reached = true
	}
	if w.bDone != nil {
		select {
		case r := <-w.bDone:
			w.bDone = nil
			if r.err != nil {
				return false, r.err
			}
			w.b = &r
			if err := w.proveB(ctx, r); err != nil {
				return false, err
			}
		default:
		}
	}
	// The cut holds until the cut master refused, so the window's end is seen while it
	// held (on a loaded machine B was once granted 3 s before that master failed itself);
	// past promotion-timeout it heals anyway, and a master still granting is recorded.
	windowClosed := w.probe.refusal != "" || time.Since(w.cutAt) >= c.promotionTimeout
	if w.healed.IsZero() && proven && w.reached && windowClosed && (w.b != nil || time.Since(w.promoted) >= c.cutHold) {
		if err := w.heal(); err != nil {
			return false, err
		}
	}
	if w.b != nil && !w.healed.IsZero() {
		w.ended()
		return true, nil
	}
	return false, nil
}

// promotedTo records the promotion and starts B beside the promoted replica.
func (w *clusterWatch) promotedTo(ctx context.Context, p promotion) error {
	t, c := w.tr.t, w.tr.c
	if p.err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return lab.NoFault("no replica of %s promoted within %v of the cut: %v (%s)", w.old.Name(), c.promotionTimeout,
			p.err, w.replicasView(ctx))
	}
	w.next, w.promoted = p.next, p.at
	t.Input("promotion_ms", lab.Millis(p.at.Sub(w.cutAt)))
	t.Prove("%s reported itself master %v after the cut", p.next.Name(), p.at.Sub(w.cutAt).Round(time.Millisecond))
	done := make(chan bResult, 1)
	w.bDone = done
	go func() { done <- w.tr.lockOnMajority(ctx, p.next, w.old, w.res, c.cutHold+clusterBPatience) }()
	return nil
}

// replicasView says how old's replicas see the cluster and old, for a trial whose
// promotion never came.
func (w *clusterWatch) replicasView(ctx context.Context) string {
	st := w.tr.v.store
	replicas, err := st.ReplicasOf(ctx, w.tr.topo, w.old)
	if err != nil {
		return err.Error()
	}
	var views []string
	for _, r := range replicas {
		state, err1 := st.ClusterState(ctx, r)
		flags, err2 := st.FlagsOf(ctx, r, w.old)
		view := fmt.Sprintf("%s says cluster_state:%s and flags %s %s", r.Name(), state, w.old.Name(),
			strings.Join(flags, ","))
		if err := errors.Join(err1, err2); err != nil {
			view += " (" + err.Error() + ")"
		}
		views = append(views, view)
	}
	return strings.Join(views, "; ")
}

// observe reads the partition from both sides: the cut master's own cluster_state, and
// the flags a master of the majority gives it.
func (w *clusterWatch) observe(ctx context.Context) error {
	w.checked = time.Now()
	st, t := w.tr.v.store, w.tr.t
	if w.minorityDown.IsZero() {
		state, err := st.ClusterState(ctx, w.old)
		if err != nil {
			return lab.Failed("observe", err)
		}
		if state == "fail" {
			w.minorityDown = time.Now()
			t.Input("minority_down_ms", lab.Millis(w.minorityDown.Sub(w.cutAt)))
			t.Prove("the cut, seen by %s: its CLUSTER INFO said cluster_state:fail %v after it", w.old.Name(),
				w.minorityDown.Sub(w.cutAt).Round(time.Millisecond))
		}
	}
	if w.markedFail.IsZero() {
		observer := w.tr.majorityObserver(w.old)
		flags, err := st.FlagsOf(ctx, observer, w.old)
		if err != nil {
			return lab.Failed("observe", err)
		}
		if slices.Contains(flags, "fail") {
			w.markedFail = time.Now()
			t.Input("marked_fail_ms", lab.Millis(w.markedFail.Sub(w.cutAt)))
			t.Prove("the cut, seen by the majority: %s flagged %s fail %v after it", observer.Name(), w.old.Name(),
				w.markedFail.Sub(w.cutAt).Round(time.Millisecond))
		}
	}
	return nil
}

// proveB reads B's token on the promoted master from the host.
func (w *clusterWatch) proveB(ctx context.Context, b bResult) error {
	k, err := redisadmin.ReadKey(ctx, w.next.Addr(), b.lease.Key)
	if err != nil {
		return lab.Failed("observe", err)
	}
	if !k.Present || k.Value != b.lease.Token {
		return lab.Failed("observe", fmt.Errorf("B granted, but the promoted %s holds %+v", w.next.Name(), k))
	}
	t := w.tr.t
	t.Input("b_granted_after_cut_ms", lab.Millis(b.grantedAt.Sub(w.cutAt)))
	if !w.healed.IsZero() && b.grantedAt.After(w.healed) {
		t.Input("b_granted_after_heal", 1)
	}
	t.Prove("B granted on the promoted %s %v after the cut, its token read there", w.next.Name(),
		b.grantedAt.Sub(w.cutAt).Round(time.Millisecond))
	return nil
}

// heal restores every link; the heal counts from its start, since the links come back
// one by one while it runs.
func (w *clusterWatch) heal() error {
	w.healed = time.Now()
	if err := w.part.HealAll(); err != nil {
		return lab.Failed("nemesis", err)
	}
	w.tr.t.Input("healed_after_cut_ms", lab.Millis(w.healed.Sub(w.cutAt)))
	w.tr.t.Input("heal_took_ms", lab.Millis(time.Since(w.healed)))
	if w.probe.refusal == "" {
		w.tr.t.Input("still_granting_at_heal", 1)
	}
	return nil
}

// ended records the cut master's grants: how many, the last one and the first refusal,
// each against the cut and the promotion.
func (w *clusterWatch) ended() {
	p, t := w.probe, w.tr.t
	t.Input("grants_probed", float64(p.sent))
	t.Input("grants_accepted", float64(p.accepted))
	if !p.lastAccepted.IsZero() {
		t.Input("last_grant_after_cut_ms", lab.Millis(p.lastAccepted.Sub(w.cutAt)))
		t.Input("last_grant_minus_promotion_ms", lab.Millis(p.lastAccepted.Sub(w.promoted)))
	}
	if p.refusal != "" {
		t.Input("refused_after_cut_ms", lab.Millis(p.refused.Sub(w.cutAt)))
		t.Prove("the cut master %s granted %d of %d probes, then answered %s %v after the cut", w.old.Name(), p.accepted,
			p.sent, p.refusal, p.refused.Sub(w.cutAt).Round(time.Millisecond))
	}
}

// abandon lets a B still trying end with the watch's context, and closes its locker.
func (w *clusterWatch) abandon() {
	if bDone := w.bDone; bDone != nil {
		w.bDone = nil
		go func() {
			if b := <-bDone; b.err == nil {
				b.close()
			}
		}()
	}
}
