package adr

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
)

// labConditions says, per scenario, what of its own set-up a probability measured
// there depends on, which a workload does not share.
var labConditions = map[string]string{
	"failover-loss":     "its own kill delays and replica lags",
	"fence-regression":  "its own followers' lag",
	"redlock-kleppmann": "its own jump size and TTL",
	"redlock-restart":   "a node of the grant restarting empty, forced",
	"redlock-fence":     "a node's counter lagging or restarting empty, forced",
	"etcd-leader-kill":  "a member restarting without its disk, forced",
	"host-crash":        "a host crash right after the grant, forced",
}

// markNotSized marks a measurement that no model carries to the workload (the fault
// has no size model, its model is only a bound, or the lab contradicted it at the
// workload's TTL): the lab's P at the lab's conditions. The ADR still says it, but
// counts it as missing evidence, out of every figure a year. A crash-failover model's
// P, and a mechanism that never breaks, need no sizing.
func (e Exposure) markNotSized(m *Measured) {
	if m == nil || m.Modelled || m.Demo == Never || m.Uncounted != "" {
		return
	}
	why := ""
	switch {
	case e.Unchecked != "":
		why = "its " + e.Unchecked + " model is not held by its lab check (see the model)"
	case e.Model != nil && e.Model.Contradicted != "":
		why = "its size model is contradicted at the workload's TTL (" + e.Model.Contradicted + ")"
	case e.Model == nil || e.Model.Unsized:
		why = "no model carries it to the workload's"
	default:
		return
	}
	count := fmt.Sprintf("%d of %d judged (%s)", m.P.K, m.P.N, percentSpan(m.P.Lo, m.P.Hi))
	if m.Demo != NotDemo {
		count = fmt.Sprintf("%d of %d judged, a forced interleaving", m.P.K, m.P.N)
	}
	where := labConditions[m.Scenario]
	if where == "" {
		where = "its own conditions"
	}
	m.Uncounted = fmt.Sprintf("not sized: lab %s at %s (%s); %s", count, variantsOf(m), where, why)
	if m.Demo == NotDemo && len(m.Each) > 1 { // conditions apart: their pool is no one condition's rate
		m.Uncounted = fmt.Sprintf("not sized: lab at `%s` %s judged, each apart (%s); %s", m.Scenario,
			strings.Join(m.Each, ", "), where, why)
	}
}

// LabOnly says no model carries option o's probability of fault k to the workload on
// the side counted (data: what reached the data), whatever the results: the ADR will
// say the lab's count and count it as missing evidence, so no trial count bounds it.
// Only the crash-failover model sizes a failover (an asynchronous replica promoted with
// no guard: Sentinel's two holders), and only the quorum model a five-node Redlock
// node restarting empty; each the lock's own side.
func LabOnly(w *workload.Workload, k backend.Fault, o *Option, data bool) bool {
	if m := SizeModelFor(w, k, o); m != nil {
		return m.Unsized
	}
	switch mechanismOf(k, o) {
	case backend.AsyncPromotion, backend.QuorumNodeLoss: // the lock's own side: a fence's is not modelled
		return data && o.Kind != Lock
	}
	return true
}

// notSizedText is a not-sized measurement in one phrase.
func notSizedText(m *Measured) string {
	return m.Uncounted + ", so it counts as missing evidence, in no figure a year"
}

// splitMissing counts the missing faults of one side that were measured but not
// sized, apart from those not measured at all.
func splitMissing(es []Exposure, missing []backend.Fault, data bool) (unmeasured, unsized int) {
	for _, e := range es {
		if !slices.Contains(missing, e.Kind) {
			continue
		}
		if m := e.side(data); m != nil && m.Uncounted != "" {
			unsized++
			continue
		}
		unmeasured++
	}
	return unmeasured, unsized
}

// side is the measurement of one side: what reached the data, or two holders.
func (e Exposure) side(data bool) *Measured {
	if data {
		return e.Data
	}
	return e.Mutex
}

// verdictWord is Bad for a measurement that saw a break or is not sized, else Good.
func verdictWord(m *Measured) string {
	if m != nil && (m.P.K > 0 || m.Uncounted != "") {
		return "Bad"
	}
	return "Good"
}

// inText is "two holders in 3 of 20 judged ..." (data: "a violation reached the data
// in ..."), or for a measurement not sized "two holders are not sized: lab ...".
func inText(data bool, m *Measured) string {
	switch {
	case data && m.Uncounted != "":
		return "what reached the data is " + measuredText(m)
	case data:
		return "a violation reached the data in " + measuredText(m)
	case m.Uncounted != "":
		return "two holders are " + measuredText(m)
	}
	return "two holders in " + measuredText(m)
}

// traceText is " (the variants)" behind a measurement's line; a measurement not sized
// names them in its own text.
func traceText(m *Measured, extra ...string) string {
	parts := extra
	if m.Uncounted == "" {
		parts = append([]string{variantsOf(m)}, extra...)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
