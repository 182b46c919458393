package partition

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// splitWatch probes the old master's grants through the partition and after the heal:
// the cut is proven when the old master's INFO lists none of its replicas; it heals
// once the old master refuses or cut-hold has passed, and the watch ends at its refusal.
type splitWatch struct {
	c              splitBrainConfig
	probe          *grantProbe
	old            topologies.Node
	part           topologies.Partitioner
	cutAt          time.Time
	replicasBefore int

	proven  bool
	healed  time.Time
	checked time.Time
}

func (w *splitWatch) run(ctx context.Context, t *lab.Trial) error {
	for {
		if !w.proven && time.Since(w.checked) >= 100*time.Millisecond {
			if err := w.proveCut(ctx, t); err != nil {
				return err
			}
		}
		if w.healed.IsZero() && w.proven && (w.probe.refusal != "" || time.Since(w.cutAt) >= w.c.cutHold) {
			if err := w.part.HealAll(); err != nil {
				return lab.Failed("nemesis", err)
			}
			w.healed = time.Now()
			t.Input("healed_after_cut_ms", lab.Millis(w.healed.Sub(w.cutAt)))
		}
		if !w.proven && time.Since(w.cutAt) >= w.c.cutHold+5*time.Second {
			return lab.NoFault("%s still listed replicas %v after the cut", w.old.Name(),
				time.Since(w.cutAt).Round(time.Millisecond))
		}
		if w.probe.refusal != "" && !w.healed.IsZero() {
			return w.ended(t)
		}
		if !w.healed.IsZero() && time.Since(w.healed) >= w.c.demotionWatch {
			t.Input("still_granting", 1)
			return w.ended(t)
		}
		if err := lab.Sleep(ctx, splitProbeInterval); err != nil {
			return err
		}
		if w.probe.refusal == "" {
			if err := w.probe.grant(ctx); err != nil {
				return err
			}
		}
	}
}

// ProveCut reads the old master's INFO replication: a cut master loses its replicas
// after repl-timeout.
func (w *splitWatch) proveCut(ctx context.Context, t *lab.Trial) error {
	w.checked = time.Now()
	info, err := redisadmin.Replication(ctx, w.old.Addr())
	if err != nil {
		return lab.Failed("observe", err)
	}
	if len(info.Replicas) > 0 {
		return nil
	}
	w.proven = true
	t.Input("cut_proven_ms", lab.Millis(time.Since(w.cutAt)))
	t.Prove("the cut: %s's INFO replication listed %d replicas before it and none %v after it (role %s)",
		w.old.Name(), w.replicasBefore, time.Since(w.cutAt).Round(time.Millisecond), info.Role)
	return nil
}

// ended records how the old master's grants stopped.
func (w *splitWatch) ended(t *lab.Trial) error {
	p := w.probe
	t.Input("grants_probed", float64(p.sent))
	t.Input("grants_accepted", float64(p.accepted))
	if p.refusal == "" {
		t.Prove("the old master %s still granted %v after the heal: %d of %d probes accepted", w.old.Name(),
			w.c.demotionWatch, p.accepted, p.sent)
		return nil
	}
	if p.refused.Before(w.healed) {
		t.Input("refused_after_cut_ms", lab.Millis(p.refused.Sub(w.cutAt)))
	} else {
		t.Input("demoted_after_heal_ms", lab.Millis(p.refused.Sub(w.healed)))
	}
	if p.refusal == "NOREPLICAS" {
		t.Input("ended_by_noreplicas", 1)
	}
	t.Prove("the old master %s granted %d of %d probes, then answered %s %v after the cut", w.old.Name(), p.accepted,
		p.sent, p.refusal, p.refused.Sub(w.cutAt).Round(time.Millisecond))
	return nil
}
