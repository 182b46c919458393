package report

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/stats"
)

// LostUpdatesScenario is the safety scenario whose variants judge each way's writes.
const LostUpdatesScenario = "lost-updates"

// lockFreeGuard is the guard column of a lock-free strategy: the store is the guard.
const lockFreeGuard = "lock-free"

// Way is one way to update a row, judged on both sides: what one correct update costs
// without faults (an update cell), and what its writes lost when the lock broke (the
// lost-updates variants, every break summed).
type Way struct {
	Strategy string // lock strategy, or the lock-free strategy
	Guard    string // guard mode, or lockFreeGuard
	Fence    string // where fenced guards' tokens came from in the safety run; "" for the lock's own
	Cost     *resultsdir.Cell
	// Faults is every proven fault (judged trial), Lost the updates lost over them,
	// Losing the trials that lost at least one; Breaks names the faults.
	Faults, Lost, Losing int
	Breaks               []string
	// Duplicates are changes applied twice (a redelivered change with its key);
	// Stale are changes applied for a holder that had lost the lock; Escaped are side
	// effects sent for changes never applied.
	Duplicates, Stale, Escaped int
}

// clean says the way kept the data correct through every proven fault: no update
// lost, no stale holder's change applied, no change applied twice, no side effect
// sent for a change that was not applied.
func (w Way) clean() bool {
	return w.Faults > 0 && w.Lost == 0 && w.Stale == 0 && w.Duplicates == 0 && w.Escaped == 0
}

// Key is the way's name in tables and figures: strategy+guard[, fence].
func (w Way) Key() string {
	k := w.Strategy + "+" + w.Guard
	if w.Fence != "" {
		k += " (" + w.Fence + " fence)"
	}
	return k
}

// LostPer1000 is lost updates per 1,000 proven faults.
func (w Way) LostPer1000() float64 {
	if w.Faults == 0 {
		return 0
	}
	return 1000 * float64(w.Lost) / float64(w.Faults)
}

// WrongPer1000 is changes gone wrong (lost, stale applied, applied twice) per 1,000
// proven faults.
func (w Way) WrongPer1000() float64 {
	if w.Faults == 0 {
		return 0
	}
	return 1000 * float64(w.Lost+w.Stale+w.Duplicates) / float64(w.Faults)
}

// Verdict is the share of faults that lost an update, with its interval.
func (w Way) Verdict() results.Proportion { return results.ProportionOf(w.Losing, w.Faults) }

// costClients is the load the cost column quotes: 8 clients on one hot row, where a
// lock is contended and a version check retries.
const costClients = 8

// JoinWays matches the update cells with the lost-updates variants. A way appears if
// either side measured it.
func JoinWays(cells []resultsdir.Cell, reports []*results.Report) []*Way {
	byKey := map[string]*Way{}
	var order []string
	get := func(strategy, guard, fence string) *Way {
		w := &Way{Strategy: strategy, Guard: guard, Fence: fence}
		if got, ok := byKey[w.Key()]; ok {
			return got
		}
		byKey[w.Key()] = w
		order = append(order, w.Key())
		return w
	}
	for i := range cells {
		c := &cells[i]
		if !c.IsUpdate() || c.Update == nil {
			continue
		}
		guard := c.Guard
		if guard == "" {
			guard = lockFreeGuard
		}
		w := get(c.Strategy, guard, "")
		if w.Cost == nil || costRank(c) < costRank(w.Cost) {
			w.Cost = c
		}
	}
	for _, rep := range reports {
		if rep == nil || rep.Scenario != LostUpdatesScenario {
			continue
		}
		for _, v := range rep.Variants {
			strategy, guard := v.Params["strategy"], v.Params["guard"]
			if strategy == "" {
				continue
			}
			if guard == "" || guard == "none" {
				guard = lockFreeGuard
			}
			fence := v.Params["fence"]
			if fence == "lock" || fence == "none" || guard == lockFreeGuard || !needsToken(guard) {
				fence = "" // the lock's own, or a guard that reads no token
			}
			w := get(strategy, guard, fence)
			w.Faults += v.Tally.Judged
			w.Lost += v.Tally.Sums[results.LostUpdates]
			w.Losing += v.Tally.Broke[results.LostUpdates]
			w.Duplicates += v.Tally.Sums[results.Duplicates]
			w.Stale += v.Tally.Sums[results.StaleApplied]
			w.Escaped += v.Tally.Sums[results.EscapedSideEffects]
			if b := v.Params["break"]; b != "" && !slices.Contains(w.Breaks, b) {
				w.Breaks = append(w.Breaks, b)
			}
		}
	}
	out := make([]*Way, 0, len(order))
	for _, k := range order {
		out = append(out, byKey[k])
	}
	return out
}

// needsToken says whether a guard compares the writer's token.
func needsToken(guard string) bool {
	g := strings.TrimSuffix(guard, "+outbox")
	return g == "fenced" || g == "check-then-write"
}

// costRank prefers the cell at costClients on one row, then the nearest load.
func costRank(c *resultsdir.Cell) int {
	r := 10 * abs(c.Clients-costClients)
	if c.Keys != 1 {
		r++
	}
	return r
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// writeDataCorrectness is the table "what keeps the data correct", the figure, and
// the reading the numbers give.
func writeDataCorrectness(b *strings.Builder, stores *backend.Catalog, ways []*Way, fig string) {
	b.WriteString("## What keeps the data correct\n\n")
	b.WriteString(
		"Rows are the lock strategy (with the fence source where it is not the lock's own) or `none` for the lock-free " +
			"strategies; columns are the write's guard. Each cell: updates lost over the proven faults of the `lost-updates` " +
			"safety scenario (every break it ran summed: a pause past the TTL, a Sentinel failover, a Redlock node restarting " +
			"empty, a clock jump; for the lock-free strategies a pause between read and write and a redelivered change), then " +
			"the cost of one correct update without faults (p50 at 8 clients on one hot row, from " +
			"the update workload). `–` is a side not measured.\n\n")
	rows, cols := wayGrid(stores, ways)
	b.WriteString("| lock |")
	for _, c := range cols {
		fmt.Fprintf(b, " %s |", c)
	}
	b.WriteString("\n|---|")
	for range cols {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range rows {
		fmt.Fprintf(b, "| %s |", r.label)
		for _, c := range cols {
			fmt.Fprintf(b, " %s |", cellText(r.ways[c]))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	if fig != "" {
		fmt.Fprintf(b, "![cost per correct update against lost updates](%s)\n\n", fig)
	}
	writeDataReading(b, ways)
}

type wayRow struct {
	label string
	ways  map[string]*Way // by column
}

// wayGrid lays the ways out: rows by lock (and fence), columns by guard; the
// lock-free strategies are columns of the row "none".
func wayGrid(stores *backend.Catalog, ways []*Way) ([]wayRow, []string) {
	var rows []wayRow
	rowIndex := map[string]int{}
	colSeen := map[string]bool{}
	var guards, lockFree []string
	for _, w := range ways {
		label, col := w.Strategy, w.Guard
		if w.Fence != "" {
			label += " + " + w.Fence + " fence"
		}
		if w.Guard == lockFreeGuard {
			label, col = "none", w.Strategy
		}
		i, ok := rowIndex[label]
		if !ok {
			i = len(rows)
			rowIndex[label] = i
			rows = append(rows, wayRow{label: label, ways: map[string]*Way{}})
		}
		rows[i].ways[col] = w
		if !colSeen[col] {
			colSeen[col] = true
			if w.Guard == lockFreeGuard {
				lockFree = append(lockFree, col)
			} else {
				guards = append(guards, col)
			}
		}
	}
	sort.SliceStable(guards, func(i, j int) bool { return guardOrder(guards[i]) < guardOrder(guards[j]) })
	sort.Strings(lockFree)
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i].label, rows[j].label
		if (a == "none") != (b == "none") {
			return b == "none" // the lock-free row last
		}
		ra, rb := stats.SafetyRank(stores, strings.Fields(a)[0]), stats.SafetyRank(stores, strings.Fields(b)[0])
		return ra < rb || ra == rb && a < b
	})
	return rows, append(guards, lockFree...)
}

var guardColumns = []string{"unfenced", "fenced", "check-then-write", "read-modify-write"}

func guardOrder(g string) int {
	base, outbox := strings.CutSuffix(g, "+outbox")
	i := slices.Index(guardColumns, base)
	if i < 0 {
		i = len(guardColumns)
	}
	if outbox {
		i += len(guardColumns) + 1
	}
	return i
}

// cellText is one cell: lost over faults, then the cost.
func cellText(w *Way) string {
	if w == nil {
		return ""
	}
	lost := "–"
	if w.Faults > 0 {
		p := w.Verdict()
		lost = fmt.Sprintf("**%d lost** in %d faults (%d of %d lost some, %.0f–%.0f%%)", w.Lost, w.Faults, p.K, p.N,
			100*p.Lo, 100*p.Hi)
		if w.Lost == 0 {
			lost = fmt.Sprintf("0 lost in %d faults (0 of %d, ≤%.0f%%)", w.Faults, p.N, 100*p.Hi)
		}
		if w.Stale > 0 {
			lost += fmt.Sprintf(", %d stale applied", w.Stale)
		}
		if w.Duplicates > 0 {
			lost += fmt.Sprintf(", **%d applied twice**", w.Duplicates)
		}
		if w.Escaped > 0 {
			lost += fmt.Sprintf(", %d side effects escaped", w.Escaped)
		}
	}
	cost := "–"
	if w.Cost != nil {
		lat := w.Cost.Latency[resultsdir.MetricUpdate]
		cost = fmt.Sprintf("%s p50, %s/s", stats.FormatDuration(lat.P50.D()),
			stats.FormatRate(w.Cost.Update.UpdatesPerSecond))
		if w.Cost.Clients != costClients || w.Cost.Keys != 1 {
			cost += fmt.Sprintf(" (%d clients, %d rows)", w.Cost.Clients, w.Cost.Keys)
		}
	}
	return lost + " · " + cost
}

// writeDataReading says, from the numbers, guard by guard, which ways kept the data
// correct (a correctness lock can use them), which did not (their lock is for
// efficiency only), and what the lock-free strategies did.
func writeDataReading(b *strings.Builder, ways []*Way) {
	byGuard := map[string][]*Way{}
	var guards []string
	for _, w := range ways {
		if w.Faults == 0 {
			continue
		}
		if _, ok := byGuard[w.Guard]; !ok {
			guards = append(guards, w.Guard)
		}
		byGuard[w.Guard] = append(byGuard[w.Guard], w)
	}
	sort.SliceStable(guards, func(i, j int) bool { return guardOrder(guards[i]) < guardOrder(guards[j]) })
	b.WriteString("**Reading**, guard by guard (a way is correct here when, over every proven fault, it lost no update, " +
		"applied no stale holder's change, applied no change twice and sent no side effect for a change that was not " +
		"applied; the faults each way was tried with are named):\n\n")
	var correct []string
	for _, g := range guards {
		var good, bad []string
		for _, w := range byGuard[g] {
			name := w.Strategy
			if w.Fence != "" {
				name += " + " + w.Fence + " fence"
			}
			if g == lockFreeGuard {
				name = w.Strategy
			}
			if w.clean() {
				good = append(good, fmt.Sprintf("%s (0 in %d: %s)", name, w.Faults, strings.Join(w.Breaks, ", ")))
				if g != lockFreeGuard {
					correct = append(correct, "`"+w.Key()+"`")
				}
				continue
			}
			var what []string
			if w.Lost > 0 {
				what = append(what, fmt.Sprintf("%d lost", w.Lost))
			}
			if w.Stale > 0 {
				what = append(what, fmt.Sprintf("%d stale applied", w.Stale))
			}
			if w.Duplicates > 0 {
				what = append(what, fmt.Sprintf("%d applied twice", w.Duplicates))
			}
			if w.Escaped > 0 {
				what = append(what, fmt.Sprintf("%d side effects escaped", w.Escaped))
			}
			bad = append(bad, fmt.Sprintf("%s (%s in %d)", name, strings.Join(what, ", "), w.Faults))
		}
		label := "`" + g + "`"
		if g == lockFreeGuard {
			label = "no lock (lock-free strategies)"
		}
		fmt.Fprintf(b, "- %s: ", label)
		if len(good) > 0 {
			fmt.Fprintf(b, "correct with %s", strings.Join(good, ", "))
			if len(bad) > 0 {
				b.WriteString("; ")
			}
		}
		if len(bad) > 0 {
			fmt.Fprintf(b, "not with %s", strings.Join(bad, ", "))
		}
		b.WriteString(".\n")
	}
	b.WriteString("\n")
	if len(correct) > 0 {
		fmt.Fprintf(b, "So a lock used for correctness can only be paired with %s; with every other guard above the lock "+
			"is for efficiency only (it saves duplicate work, it does not protect the data). ", strings.Join(correct, ", "))
	} else {
		b.WriteString(
			"No lock with any guard kept the data correct through its faults: every lock here is for efficiency only. ")
	}
	b.WriteString("A side effect beyond the database (the outbox) escapes whenever the guard refuses a change after it " +
		"was sent. Zero in N faults only bounds the rate, by the interval shown in the table; it proves nothing beyond " +
		"it.\n\n")
}

// readSafety reads the safety folders; each must hold a lost-updates run.
func readSafety(dirs []string) ([]*results.Report, error) {
	var reports []*results.Report
	for _, sd := range dirs {
		res, err := results.Read(sd)
		if err != nil {
			return nil, fmt.Errorf("--safety %s: %w", sd, err)
		}
		found := false
		for _, r := range res.Reports {
			found = found || r.Scenario == LostUpdatesScenario
		}
		if !found {
			return nil,
				fmt.Errorf("--safety %s: no %s scenario in its results.json (run lockbench safety --scenario %s)", sd,
					LostUpdatesScenario, LostUpdatesScenario)
		}
		reports = append(reports, res.Reports...)
	}
	return reports, nil
}
