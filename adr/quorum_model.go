package adr

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/plots/decision"
	"github.com/lockbench/lockbench/safety/results"
)

// QuorumModel is the Redlock restart-empty model. A node that comes back empty has
// dropped the key it held; a second client then wins a majority exactly when the
// holder's key sat on exactly a quorum q of the N nodes and the node was one of them
// (q/N of restarts of a random node). How often a grant sits on exactly a quorum is
// what redlock-quorum measures for the strategy: alone (a request that found the key
// free) and racing (one that found it held, and raced for it at the release). So
// P(two holders | restart while held) = q/N x ((1 - c) x s_alone + c x s_racing), c the
// share of the workload's requests that find their key held.
type QuorumModel struct {
	Strategy      string
	Quorum, Nodes int
	FoundHeld     float64 // c, from the workload's occupancy
	// Alone and Racing are the grants on exactly a quorum, measured uncontended and
	// with Racers clients racing.
	Alone, Racing results.Proportion
	Racers        int
	P             Expected
	Check         QuorumCheck
}

// QuorumCheck holds the model's rule against redlock-quorum's restart-empty trials,
// where one node holding the winner's key restarts empty: the rule says B gets in
// exactly when the key was on exactly a quorum, so at each contention the share that
// broke should be the share measured on exactly a quorum in the share variant.
type QuorumCheck struct {
	Rows []QuorumCheckRow
	// Within counts the rows whose measured interval contains the prediction.
	Within int
	// Agree counts the judged trials whose outcome the rule called from the nodes read
	// at their own grant; of the others, Over held where it called a break (the model
	// overcounts: other clients' keys left on the free nodes) and Under broke where it
	// called none (the model undercounts).
	Agree, Trials, Over, Under int
}

// failure says why the check does not let strategy's model into the figures: no check
// ran, or a contention's measured interval misses the prediction; "" when each holds it.
func (c QuorumCheck) failure(strategy string) string {
	if len(c.Rows) == 0 {
		return fmt.Sprintf("the restart model is unchecked: no judged redlock-quorum restart-empty trial of %s "+
			"(`lockbench safety --scenario redlock-quorum --param strategies=%s`)", strategy, strategy)
	}
	var rows []string
	for _, r := range c.Rows {
		rows = append(rows, r.text())
	}
	return missedCheck("the restart model", "contentions'", c.Within, rows)
}

func (r QuorumCheckRow) text() string {
	return fmt.Sprintf("%s: predicted %s, broke %s", r.Variant, percent(r.Predicted), r.Measured)
}

// QuorumCheckRow is one contention of the check.
type QuorumCheckRow struct {
	Variant   string
	Predicted float64            // the share variant's grants on exactly a quorum
	Measured  results.Proportion // restart-empty's judged trials with two holders
}

// redlockQuorumNodes is the node count redlock-quorum measures on; only the five-node
// clients declare the mechanism (backends/redis).
const redlockQuorumNodes = 5

// quorumModel computes the model of strategy's restart from the reports, or says why
// it cannot.
func quorumModel(w *workload.Workload, strategy string, reports []*results.Report) (*QuorumModel, string) {
	m := &QuorumModel{Strategy: strategy, Nodes: redlockQuorumNodes, Quorum: redlockQuorumNodes/2 + 1,
		FoundHeld: w.Occupancy.FoundHeld}
	var ok bool
	m.Alone, ok = exactQuorumShare(reports, strategy, "uncontended")
	if !ok {
		return nil, fmt.Sprintf(
			"no judged redlock-quorum trial of %s alone (`lockbench safety --scenario redlock-quorum --param "+
				"strategies=%s`)", strategy, strategy)
	}
	m.Racers = fewestRacers(reports, strategy)
	m.Racing, ok = exactQuorumShare(reports, strategy, fmt.Sprintf("contended-%d", m.Racers))
	if !ok {
		return nil, fmt.Sprintf("no judged redlock-quorum trial of %s with racing clients (`lockbench safety --scenario "+
			"redlock-quorum --param strategies=%s`)", strategy, strategy)
	}
	q := float64(m.Quorum) / float64(m.Nodes)
	mix := func(alone, racing float64) float64 { return q * ((1-m.FoundHeld)*alone + m.FoundHeld*racing) }
	m.P = Expected{Central: mix(m.Alone.Share(), m.Racing.Share()), Lo: mix(m.Alone.Lo, m.Racing.Lo),
		Hi: mix(m.Alone.Hi, m.Racing.Hi)}
	m.Check = quorumCheck(reports, strategy)
	return m, ""
}

// exactQuorumShare pools strategy's share variants of one contention ("uncontended",
// "contended-4": one condition, whatever report ran it): the judged trials whose grant
// sat on exactly a quorum.
func exactQuorumShare(reports []*results.Report, strategy, contention string) (results.Proportion, bool) {
	k, n := 0, 0
	for _, v := range results.Matching(reports, "redlock-quorum", []string{strategy + "/" + contention + "/share"}) {
		k, n = k+v.Tally.Broke[results.QuorumOnly], n+v.Tally.Judged
	}
	return results.ProportionOf(k, n), n > 0
}

// fewestRacers is the smallest number of racing clients strategy's share variants ran
// with (the contended level the model reads: conditions with other counts are not
// pooled); 0 when none ran.
func fewestRacers(reports []*results.Report, strategy string) int {
	fewest := 0
	for _, v := range results.Matching(reports, "redlock-quorum", []string{strategy + "/contended-*/share"}) {
		if c, err := strconv.Atoi(v.Params["clients"]); err == nil && c > 1 && (fewest == 0 || c < fewest) &&
			v.Tally.Judged > 0 {
			fewest = c
		}
	}
	return fewest
}

// quorumCheck compares, per contention, restart-empty's share with two holders with
// the share variant's grants on exactly a quorum, and calls each judged trial.
func quorumCheck(reports []*results.Report, strategy string) QuorumCheck {
	var c QuorumCheck
	for _, v := range results.Matching(reports, "redlock-quorum", []string{strategy + "/*/restart-empty"}) {
		contention := strings.TrimSuffix(strings.TrimPrefix(v.Name, strategy+"/"), "/restart-empty")
		share, ok := exactQuorumShare(reports, strategy, contention)
		if !ok || v.Tally.Judged == 0 {
			continue
		}
		broke := 0
		for _, tr := range v.Trials {
			if tr.Outcome != results.Judged {
				continue
			}
			exact, was := tr.Counts[results.QuorumOnly] > 0, tr.Counts[results.Violations] > 0
			if was {
				broke++
			}
			switch {
			case exact == was:
				c.Agree++
			case exact:
				c.Over++
			default:
				c.Under++
			}
			c.Trials++
		}
		row := QuorumCheckRow{Variant: v.Name, Predicted: share.Share(),
			Measured: results.ProportionOf(broke, v.Tally.Judged)}
		if row.Measured.Lo <= row.Predicted && row.Predicted <= row.Measured.Hi {
			c.Within++
		}
		c.Rows = append(c.Rows, row)
	}
	// Alone first, then by name: the contention grows left to right.
	alone := func(r QuorumCheckRow) bool { return strings.Contains(r.Variant, "/uncontended/") }
	sort.Slice(c.Rows, func(i, j int) bool {
		if alone(c.Rows[i]) != alone(c.Rows[j]) {
			return alone(c.Rows[i])
		}
		return c.Rows[i].Variant < c.Rows[j].Variant
	})
	return c
}

// Line is the model and its check in one line for the ADR.
func (m *QuorumModel) Line() string {
	check := "no redlock-quorum restart-empty trials to check it against"
	if len(m.Check.Rows) > 0 {
		var rows []string
		for _, r := range m.Check.Rows {
			rows = append(rows, r.text())
		}
		missed := ""
		if c := m.Check; c.Over+c.Under > 0 {
			missed = fmt.Sprintf(": of the others, %d held where it called a break (it overcounts) and %d broke where it "+
				"called none (it undercounts)", c.Over, c.Under)
		}
		check = fmt.Sprintf("checked against redlock-quorum's restart of a node holding the key: %d of %d contentions' "+
			"intervals contain the prediction, %d of %d judged trials called from the nodes read at their grant%s (%s)",
			m.Check.Within, len(m.Check.Rows), m.Check.Agree, m.Check.Trials, missed, strings.Join(rows, "; "))
	}
	return fmt.Sprintf("a node restarting empty under %s: two holders when the key sat on exactly a quorum (%d of %d) "+
		"including that node, so P(two holders | held) = %d/%d x ((1 - c) x %s + c x %s) = %s (%s), with c = %s of "+
		"requests finding their key held (the workload's occupancy) racing like redlock-quorum's %d clients (%s of grants "+
		"on exactly a quorum, %d of %d) and the rest alone (%s, %d of %d); the node is taken to come back before the lease "+
		"ends (Redlock's delayed restart breaks none); %s",
		m.Strategy, m.Quorum, m.Nodes, m.Quorum, m.Nodes, percent(m.Alone.Share()), percent(m.Racing.Share()),
		percent(m.P.Central), percentSpan(m.P.Lo, m.P.Hi),
		percent(m.FoundHeld), m.Racers, percent(m.Racing.Share()), m.Racing.K, m.Racing.N, percent(m.Alone.Share()),
		m.Alone.K, m.Alone.N, check)
}

// QuorumSized says the quorum model sizes fault k for option o: a five-node Redlock
// node restarting empty.
func QuorumSized(k backend.Fault, o *Option) bool {
	return mechanismOf(k, o) == backend.QuorumNodeLoss
}

// QuorumSharesGiven says the reports hold both of strategy's shares on exactly a
// quorum (alone and racing) that the model needs.
func QuorumSharesGiven(reports []*results.Report, strategy string) bool {
	_, alone := exactQuorumShare(reports, strategy, "uncontended")
	return alone && fewestRacers(reports, strategy) > 0
}

// quorumFigures draws each strategy's quorum model against its check, once: the
// predicted break of a restart of a node holding the key beside the measured one, per
// contention.
func quorumFigures(d *Decision) []decision.ModelCheck {
	var out []decision.ModelCheck
	seen := map[string]bool{}
	for _, o := range d.Options {
		for _, e := range o.Faults {
			m := e.Quorum
			if m == nil || seen[m.Strategy] || len(m.Check.Rows) == 0 {
				continue
			}
			seen[m.Strategy] = true
			f := decision.ModelCheck{Name: "adr-model-quorum-" + m.Strategy,
				Title:  m.Strategy + ": a node holding the key restarts empty",
				YLabel: "share of judged trials with two holders",
				Caption: fmt.Sprintf("redlock-quorum, %s: at each contention a node holding the winner's key restarts empty and "+
					"B tries. The dot is the share of judged trials with two holders, with its 95%% interval; the marker beside it "+
					"is the model's prediction, the share of the same contention's grants on exactly a quorum (its share variant, "+
					"other trials). %d of %d intervals contain the prediction.",
					m.Strategy, m.Check.Within, len(m.Check.Rows))}
			for _, r := range m.Check.Rows {
				label := strings.TrimSuffix(strings.TrimPrefix(r.Variant, m.Strategy+"/"), "/restart-empty")
				f.Points = append(f.Points,
					decision.ModelPoint{Label: label, Predicted: r.Predicted, K: r.Measured.K, N: r.Measured.N, Lo: r.Measured.Lo,
						Hi: r.Measured.Hi})
			}
			out = append(out, f)
		}
	}
	return out
}
