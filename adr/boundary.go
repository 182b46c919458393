package adr

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lockbench/lockbench/adr/modelcheck"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/plots/decision"
	"github.com/lockbench/lockbench/safety/results"
)

// boundaryChecked adds to a size model what the given results checked of its boundary
// at the workload's own TTL (`lockbench adr --plan` lists the runs that do). A side of
// the boundary that broke against the model contradicts it.
func boundaryChecked(m *SizeModel, w *workload.Workload, k backend.Fault, reports []*results.Report) {
	if m == nil {
		return
	}
	switch {
	case k == backend.ClientPauseFault:
		var parts []string
		if s := pauseAtTTL(w, reports); s != "" {
			parts = append(parts, "pause-past-ttl checks the mechanism; "+s)
		}
		var against []string
		if sides := modelcheck.Pause(reports, w.TTLD, w.HoldD); len(sides) > 0 {
			text, a := modelcheck.Text(sides)
			parts = append(parts, fmt.Sprintf("pause-past-ttl's boundary mode at the workload's TTL %v: %s", w.TTLD, text))
			against = appendNonEmpty(against, a)
		}
		for _, ttl := range labTTLsRun(reports, w) {
			text, a := modelcheck.Text(modelcheck.PauseScaled(reports, ttl, w.TTLD, w.HoldD))
			parts = append(parts, fmt.Sprintf("pause-past-ttl's boundary mode at the lab's TTL %v, the hold scaled to "+
				"the same share of it (%v): %s", ttl, modelcheck.ScaledHold(w.HoldD, ttl, w.TTLD), text))
			against = appendNonEmpty(against, a)
		}
		m.Contradicted = strings.Join(against, "; ")
		if len(parts) > 0 {
			m.Checked = strings.Join(parts, "; ")
		}
	case k == backend.HostCrashFault && m.Name == unsyncedModelName:
		unsyncedChecked(m, reports)
	case k == backend.ClockJumpFault && m.Name == redlockJumpModel:
		if s := redlockJumpAtTTL(w, reports); s != "" {
			m.Checked = "redlock-kleppmann checks the mechanism at the lab's sizes; " + s
		}
	case k == backend.ClockJumpFault:
		if sides := modelcheck.SingleJump(reports, w.TTLD, w.HoldD); len(sides) > 0 {
			text, against := modelcheck.Text(sides)
			m.Checked = fmt.Sprintf(
				"single-clock-skew's boundary mode at the workload's TTL %v and hold %v (TTL - hold = %v): %s", w.TTLD, w.HoldD,
				clocks.SingleJumpThreshold(w.TTLD, w.HoldD), text)
			m.Contradicted = against
		}
	}
}

// labTTLsRun are the TTLs other than the workload's at which pause-past-ttl's boundary
// mode ran with the workload's hold scaled to the same share of the TTL, shortest
// first.
func labTTLsRun(reports []*results.Report, w *workload.Workload) []time.Duration {
	var out []time.Duration
	for _, r := range reports {
		if r == nil || r.Scenario != "pause-past-ttl" || r.Params["mode"] != "boundary" {
			continue
		}
		ttl, err := time.ParseDuration(r.Params["ttl"])
		if err != nil || ttl == w.TTLD || slices.Contains(out, ttl) ||
			len(modelcheck.PauseScaled([]*results.Report{r}, ttl, w.TTLD, w.HoldD)) == 0 {
			continue
		}
		out = append(out, ttl)
	}
	slices.Sort(out)
	return out
}

func appendNonEmpty(list []string, s string) []string {
	if s == "" {
		return list
	}
	return append(list, s)
}

// unsyncedChecked counts host-crash's trials of a master that never fsyncs: the model
// holds only if every judged one lost the lock it had just granted.
func unsyncedChecked(m *SizeModel, reports []*results.Report) {
	lost, judged := 0, 0
	for _, v := range results.Matching(reports, "host-crash", []string{unsyncedVariant}) {
		lost, judged = lost+v.Tally.Broke[results.LostLocks], judged+v.Tally.Judged
	}
	if judged == 0 {
		return
	}
	m.Checked = fmt.Sprintf("host-crash's %s checks it at the lab's sizes, a crash right after the grant: %d of %d "+
		"judged lost the lock", unsyncedVariant, lost, judged)
	if lost < judged {
		m.Contradicted = fmt.Sprintf("%d of %d judged crashes of %s kept the lock", judged-lost, judged, unsyncedVariant)
	}
}

// pauseAtTTL counts pause-past-ttl's unfenced mechanism trials run at the workload's TTL.
func pauseAtTTL(w *workload.Workload, reports []*results.Report) string {
	broke, judged, factor := 0, 0, ""
	for _, r := range reports {
		if r == nil || r.Scenario != "pause-past-ttl" || !modelcheck.AtTTL(r.Params, w.TTLD) ||
			r.Params["mode"] == "boundary" {
			continue // a boundary run's pause is sized on the lease left, not pause-factor
		}
		if factor = r.Params["pause-factor"]; factor == "" {
			factor = "3" // the scenario's default
		}
		for _, v := range r.Variants {
			if strings.HasSuffix(v.Name, "/no-watchdog") || strings.HasSuffix(v.Name, "/watchdog") {
				broke += v.Tally.Broke[results.Violations]
				judged += v.Tally.Judged
			}
		}
	}
	if judged == 0 {
		return ""
	}
	return fmt.Sprintf("at the workload's TTL %v, a pause of %s x it gave two holders in %d of %d judged unfenced trials",
		w.TTLD, factor, broke, judged)
}

// redlockJumpAtTTL lists redlock-clock-jump's points run at the workload's TTL.
func redlockJumpAtTTL(w *workload.Workload, reports []*results.Report) string {
	var points []string
	for _, r := range reports {
		if r == nil || r.Scenario != "redlock-clock-jump" {
			continue
		}
		for _, v := range r.Variants {
			if !modelcheck.AtTTL(v.Params, w.TTLD) || v.Tally.Judged == 0 {
				continue
			}
			// The sentence's model is that of a client awaiting every node; another is named.
			who := ""
			if s := v.Params["strategy"]; !linked.Catalog().StrategyAwaitsEveryIndependentNode(s) {
				who = s + " "
			}
			points = append(points,
				fmt.Sprintf("%s%s nodes jumping %s: %d of %d", who, v.Params["k"], v.Params["jump"],
					v.Tally.Broke[results.Violations], v.Tally.Judged))
		}
	}
	if len(points) == 0 {
		return ""
	}
	sort.Strings(points)
	return fmt.Sprintf("at the workload's TTL %v, redlock-clock-jump gave two holders with %s judged (its holder keeps "+
		"the lock for its whole validity, TTL - redsync's drift, so the threshold TTL - hold is the drift x TTL = %v)",
		w.TTLD, strings.Join(points, ", "), time.Duration(0.01*float64(w.TTLD)))
}

// boundaryFigures draws the pause and single-master jump models against their
// boundary runs at the workload's TTL and hold, where the results hold them.
func boundaryFigures(d *Decision, reports []*results.Report) []decision.ModelCheck {
	w := d.Workload
	var out []decision.ModelCheck
	if ss := modelcheck.Pause(reports, w.TTLD, w.HoldD); len(ss) > 0 {
		out = append(out, modelcheck.Figure("adr-model-pause-boundary", fmt.Sprintf(
			"A pause against the lease left, TTL %v, hold %v", w.TTLD, w.HoldD),
			"pause-past-ttl's boundary mode at the workload's TTL: each strategy's holder stops 0.8 x (below) and 1.2 x "+
				"(above) the lease it has left. The dot is the share of judged trials with two holders, with its 95% interval; "+
				"the marker beside it is the model's prediction: none below, every one above.", ss))
	}
	for _, ttl := range labTTLsRun(reports, w) {
		hold := modelcheck.ScaledHold(w.HoldD, ttl, w.TTLD)
		out = append(out, modelcheck.Figure(fmt.Sprintf("adr-model-pause-boundary-%v", ttl), fmt.Sprintf(
			"A pause against the lease left at the lab's TTL %v, hold %v", ttl, hold), fmt.Sprintf(
			"pause-past-ttl's boundary mode at the lab's TTL %v, the workload's hold scaled to the same share of it (%v "+
				"of %v is %v of %v): each strategy's holder stops 0.8 x (below) and 1.2 x (above) the lease it has left. The "+
				"dot is the share of judged trials with two holders, with its 95%% interval; the marker beside it is the "+
				"model's prediction: none below, every one above.", ttl, w.HoldD, w.TTLD, hold, ttl),
			modelcheck.PauseScaled(reports, ttl, w.TTLD, w.HoldD)))
	}
	if ss := modelcheck.SingleJump(reports, w.TTLD, w.HoldD); len(ss) > 0 {
		out = append(out, modelcheck.Figure("adr-model-single-jump-boundary", fmt.Sprintf(
			"A master's clock jump against TTL - hold = %v", clocks.SingleJumpThreshold(w.TTLD, w.HoldD)),
			"single-clock-skew's boundary mode at the workload's TTL and hold: the master's clock jumps 0.8 x (below) and 1.2 "+
				"x (above) TTL - hold at the grant. The dot is the share of judged trials with two holders, with its 95% "+
				"interval; the marker beside it is the model's prediction: none below, every one above.", ss))
	}
	return out
}
