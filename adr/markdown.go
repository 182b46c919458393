package adr

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/stats"
)

// Figure is a figure the ADR links, relative to the ADR's folder.
type Figure struct {
	Name, File, Caption string
}

// Meta is what the ADR says about itself: its date and how it was produced.
type Meta struct {
	Date         string
	WorkloadFile string
	Command      string   // the lockbench adr command line
	Figures      []Figure // drawn beside it
	OutDir       string   // the ADR's folder, for relative links
}

// Markdown writes the decision as an MADR 4.0 record.
func Markdown(d *Decision, meta Meta) string {
	var b strings.Builder
	w := d.Workload
	fmt.Fprintf(&b, "---\nstatus: proposed\ndate: %s\n---\n\n", meta.Date)
	title := w.Title
	if title == "" {
		title = "Which lock for " + w.Protects
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	writeContext(&b, d, meta)
	writeDrivers(&b, d)
	writeOptions(&b, d)
	writeOutcome(&b, d)
	writeConfirmation(&b, d, meta)
	writeProsCons(&b, d)
	writeMore(&b, d, meta)
	return b.String()
}

func purposeWords(p workload.Purpose) string {
	if p == workload.Correctness {
		return "**correctness**, in the write-up's sense: a violation corrupts data"
	}
	return "**efficiency**, in the write-up's sense: a violation costs duplicate work"
}

func writeContext(b *strings.Builder, d *Decision, meta Meta) {
	w := d.Workload
	b.WriteString("## Context and Problem Statement\n\n")
	fmt.Fprintf(b, "The lock protects %s. Its purpose is %s. It is taken %s times a second and held %s, with a TTL of %s.\n\n",
		w.Protects, purposeWords(w.Purpose), stats.FormatRate(w.LockRate), w.HoldD, w.TTLD)
	b.WriteString("Which way of taking it meets that purpose within the latency budget at the lowest cost, and how many violations a year should the team expect from the faults it expects?\n\n")
	fmt.Fprintf(b, "This draft was computed by `%s` from the workload file `%s` and the results folders under More Information: every cost and probability is read from them, every count a year computed from them and the workload's fault rates (docs/adr.md of lockbench says how).\n\n", meta.Command, meta.WorkloadFile)
}

func writeDrivers(b *strings.Builder, d *Decision) {
	w := d.Workload
	b.WriteString("## Decision Drivers\n\n")
	fmt.Fprintf(b, "* Latency budget: %s at %s locks/s.\n", w.SLO, stats.FormatRate(w.LockRate))
	if w.Purpose == workload.Correctness {
		fmt.Fprintf(b, "* Purpose: correctness. Only an option with a fence the resource checks, or no lock and a store-side guard, qualifies (the write-up's rules 1 to 4), and only when the upper end of its violations reaching the data a year is within the budget of %s: none seen in a few trials is not enough.\n", Plain(*w.ViolationBudget))
	} else {
		fmt.Fprintf(b, "* Purpose: efficiency. Duplicate work is tolerated up to %s runs a year (the upper end of the locks broken a year, each a duplicate run, must stay within it).\n", Plain(*w.DuplicateBudget))
	}
	b.WriteString("* Fault rates the team expects:\n\n")
	b.WriteString("  | fault | per year | counted | source |\n  |---|---|---|---|\n")
	for _, k := range workload.FaultKinds {
		r := w.Faults.Rate(k)
		what := ""
		switch k {
		case backend.ClientPauseFault:
			what = "pauses longer than " + r.LongerThan
		case backend.ClockJumpFault:
			what = "jumps above " + r.Above
		}
		fmt.Fprintf(b, "  | %s | %s | %s | %s |\n", k, Plain(r.PerYear), what, r.Source)
	}
	b.WriteString("\n* The faults are the lock service's (its servers, its clients' pauses and clocks). The protected store's own durability is the same under every option and is not counted.\n")
	writeOccupancy(b, w)
	writeSizeModels(b, d)
	if p := w.Faults.ClientPause; p != nil {
		if lt, _ := workload.PositiveDuration(p.LongerThan); lt < w.TTLD {
			fmt.Fprintf(b, "* The pauses counted (longer than %s) include some shorter than the TTL (%s), which do not outlast the lease: their count is an upper bound.\n", p.LongerThan, w.TTLD)
		}
	}
	b.WriteString("\n")
}

func kindWords(o *Option) string {
	switch o.Kind {
	case Fenced:
		return "the lock, and a resource that refuses a fence below the highest it accepted (" + o.Fence + ")"
	case LockFree:
		return "no lock: the store judges each update"
	}
	if o.Mode != "" {
		return "the lock alone, with the guard measured by failover-loss mode " + o.Mode
	}
	return "the lock alone: the resource takes every holder's write"
}

func writeOptions(b *strings.Builder, d *Decision) {
	b.WriteString("## Considered Options\n\n")
	for _, o := range d.Options {
		dep := o.Cost.Deployment
		if dep == "" {
			dep = "deployment not benchmarked"
		}
		fmt.Fprintf(b, "* %s: %s (%s)\n", o.Name, kindWords(o), dep)
	}
	b.WriteString("\n")
}

// side is what the purpose counts: data for correctness, two holders for efficiency.
func side(w *workload.Workload, o *Option) bool {
	return w.Purpose == workload.Correctness || o.Kind == LockFree
}

func writeOutcome(b *strings.Builder, d *Decision) {
	w := d.Workload
	b.WriteString("## Decision Outcome\n\n")
	if d.Chosen == nil {
		b.WriteString("Chosen option: none yet. No option is shown, by the given results, to meet the purpose within the budget.\n\n")
		closest := closestCandidates(d)
		if len(closest) > 0 && !closest[0].Verdict.RuledOut {
			c := closest[0]
			fmt.Fprintf(b, "The cheapest option no measurement rules out is \"%s\" (%s); it cannot be chosen until these are measured: %s.\n\n", c.Name, serversText(c.Cost), strings.Join(c.Verdict.Missing, ", "))
		}
		if len(closest) > 0 {
			b.WriteString("What stands in the way, options not ruled out first, then cheapest first:\n\n")
			for _, o := range closest {
				fmt.Fprintf(b, "* %s: %s.\n", o.Name, strings.Join(o.Verdict.Why, "; "))
			}
			b.WriteString("\n")
		}
		return
	}
	o := d.Chosen
	total := o.Verdict.Year
	why := fmt.Sprintf("whose locks broken (duplicate work) stay within the budget: %s", yearly(total, anySeen(o.Faults, side(w, o))))
	if w.Purpose == workload.Correctness {
		why = fmt.Sprintf("whose violations reaching the data stay within the budget of %s a year: %s", Plain(*w.ViolationBudget), yearly(total, anySeen(o.Faults, true)))
	}
	fmt.Fprintf(b, "Chosen option: \"%s\", because it is the cheapest option (%s; %s %s at %s/s) %s.\n\n",
		o.Name, serversText(o.Cost), w.SLO.Percentile, stats.FormatDuration(o.Cost.AtBudget), stats.FormatRate(w.LockRate), why)
	b.WriteString("### Consequences\n\n")
	fmt.Fprintf(b, "* Good, because it costs %s: p50 %s, p99 %s, p99.9 %s (%s).\n", serversText(o.Cost),
		stats.FormatDuration(o.Cost.P50), stats.FormatDuration(o.Cost.P99), stats.FormatDuration(o.Cost.P999), o.Cost.How)
	switch {
	case o.Cost.HasCapacity && o.Cost.KeptRate >= w.LockRate:
		fmt.Fprintf(b, "* Good, because its capacity within the budget is %s.\n", o.Cost.Capacity)
	case o.Cost.HasCapacity:
		fmt.Fprintf(b, "* Bad, because the open-loop rates it was measured at did not keep the budget: %s.\n", o.Cost.Capacity)
	}
	for _, e := range o.Faults {
		if e.NA != "" || e.PerYear == 0 {
			continue
		}
		m := e.side(side(w, o))
		if m == nil {
			continue // said below, with the worst it can add
		}
		fmt.Fprintf(b, "* %s, because under %s (%s a year) %s.\n", verdictWord(m), e.Kind, Plain(e.PerYear), inText(side(w, o), m))
		if o.Kind == Fenced && e.Mutex != nil && e.Mutex.P.K > 0 {
			fmt.Fprintf(b, "* Bad, because the lock itself still fails under %s: %s; the fence is what keeps it from the data", e.Kind, inText(false, e.Mutex))
			if e.Refused != nil {
				fmt.Fprintf(b, " (it refused a stale write in %d of %d judged trials)", e.Refused.P.K, e.Refused.P.N)
			}
			b.WriteString(".\n")
		}
	}
	for _, e := range o.Faults {
		if e.NA == "" && e.PerYear == 0 {
			fmt.Fprintf(b, "* Bad, because %s is not counted: the workload gives it 0 a year; if it happens, see its row below.\n", e.Kind)
		}
	}
	if d.Workload.Purpose == workload.Correctness && anyRateBound(o.Faults) {
		b.WriteString("* Neutral, because none seen is not none: each bound above shrinks as judged trials are added (`--trials`).\n")
	}
	if o.Verdict.Unmeasured > 0 {
		fmt.Fprintf(b, "* Bad, because not measured for it: %s; counted at their worst (every such fault breaking the lock it finds held): up to %s a year of the total.\n",
			strings.Join(o.Verdict.Missing, ", "), count(o.Verdict.Unmeasured))
	}
	b.WriteString("\n")
}

// closestCandidates are the options that fail the decision, cheapest first, those
// only missing measurements ahead of those that failed one.
func closestCandidates(d *Decision) []*Option {
	var out []*Option
	for _, o := range d.Options {
		if d.Workload.Purpose == workload.Correctness && o.Kind == Lock {
			continue
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		out = append(out, d.Options...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if a, b := out[i].Verdict.RuledOut, out[j].Verdict.RuledOut; a != b {
			return !a
		}
		return cheaper(out[i], out[j])
	})
	return out
}

func serversText(c Cost) string {
	if c.NoLockService {
		return "no lock service"
	}
	if c.Servers == 0 {
		return "servers unknown"
	}
	if c.Servers == 1 {
		return "1 server"
	}
	return fmt.Sprintf("%d servers", c.Servers)
}

// anyRateBound says whether a counted fault's data side is a rate with none seen: a
// bound that more judged trials shrink (a demonstration's never is no bound).
func anyRateBound(es []Exposure) bool {
	for _, e := range es {
		if e.NA == "" && e.PerYear > 0 && e.Data != nil && e.Data.Demo == NotDemo && e.Data.Uncounted == "" && e.Data.P.K == 0 {
			return true
		}
	}
	return false
}

// anySeen says whether any counted fault in the totals was seen at least once.
func anySeen(es []Exposure, data bool) bool {
	for _, e := range es {
		m := e.side(data)
		if e.NA == "" && e.PerYear > 0 && m != nil && m.Uncounted == "" && m.P.K > 0 {
			return true
		}
	}
	return false
}

func writeConfirmation(b *strings.Builder, d *Decision, meta Meta) {
	b.WriteString("### Confirmation\n\n")
	b.WriteString("Re-measure with the commands that produced the results, then regenerate this record:\n\n")
	for i, dir := range d.Inputs.BenchDirs {
		cmd := strings.Join(d.Inputs.Runs[i].Environment.CommandLine, " ")
		if cmd == "" {
			cmd = "lockbench run (command line not recorded)"
		}
		fmt.Fprintf(b, "    %s    # wrote %s\n", cmd, dir)
	}
	for i, dir := range d.Inputs.SafetyDirs {
		fmt.Fprintf(b, "    %s --out %s\n", safetyCommand(d.Inputs.SafetyCommands[i]), dir)
	}
	fmt.Fprintf(b, "    %s\n\n", meta.Command)
	missing := map[string]bool{}
	for _, o := range d.Options {
		for _, k := range o.Verdict.Missing {
			missing[k] = true
		}
	}
	if len(missing) > 0 {
		b.WriteString("Faults with a rate above 0 that the given results do not measure for some option are named in each option's row; the scenarios that measure them are listed in docs/adr.md of lockbench (where each probability comes from).\n\n")
	}
}

// safetyCommand rebuilds the safety run's command from what results.json recorded.
func safetyCommand(c *results.Command) string {
	if c == nil {
		return "lockbench safety (command not recorded)"
	}
	s := fmt.Sprintf("lockbench safety --scenario %s --trials %d --seed %d", strings.Join(c.Scenarios, ","), c.Trials, c.Seed)
	keys := make([]string, 0, len(c.Params))
	for k := range c.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s += fmt.Sprintf(" --param %s=%s", k, c.Params[k])
	}
	if c.Provider != "" {
		s += " --provider " + c.Provider
	}
	return s
}

func writeProsCons(b *strings.Builder, d *Decision) {
	w := d.Workload
	b.WriteString("## Pros and Cons of the Options\n\n")
	fmt.Fprintf(b, "Cost at %s locks/s: the time to acquire a lock, or for a lock-free way one whole update (its read, check and write), which is what it replaces; expected counts a year from the workload's fault rates. \"Two holders\" is mutual exclusion lost; \"reaching the data\" is what got past the resource (for a lock alone, every violation). Intervals are from the 95%% Wilson intervals of the judged trials; the ends of a sum add up (conservative). A forced interleaving (a variant a claim checks as always or never) counts as its mechanism, never as a rate: always breaks every held lock a counted fault finds, never breaks none, each with no interval.\n\n", stats.FormatRate(w.LockRate))
	fmt.Fprintf(b, "| option | servers | p50 / p99 / p99.9 at the rate | capacity within %s | locks broken a year (two holders) | reaching the data a year | meets the purpose |\n|---|---|---|---|---|---|---|\n", w.SLO)
	for _, o := range d.Options {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", o.Name, serversCell(o.Cost), latencyCell(o.Cost), capacityCell(o.Cost),
			sideCell(w, o, false), sideCell(w, o, true), meetsCell(o))
	}
	b.WriteString("\nWhy each verdict:\n\n")
	writeReasons(b, d)
	for _, o := range d.Options {
		fmt.Fprintf(b, "### %s\n\n", o.Name)
		if o.Cost.Measured {
			fmt.Fprintf(b, "* Neutral, because its cost was read from `%s` (%s).\n", o.Cost.Cell, o.Cost.How)
		} else {
			fmt.Fprintf(b, "* Bad, because its cost is not measured: %s.\n", o.Cost.Why)
		}
		for _, e := range o.Faults {
			writeFaultLine(b, o, e)
		}
		b.WriteString("\n")
	}
}

func writeFaultLine(b *strings.Builder, o *Option, e Exposure) {
	switch {
	case e.NA == "" && e.PerYear == 0:
		fmt.Fprintf(b, "* Neutral, because %s is not counted (0 a year in the workload); measured: %s.\n", e.Kind, zeroRateText(e))
		return
	case e.NA != "":
		fmt.Fprintf(b, "* Neutral, because %s does not apply: %s.\n", e.Kind, e.NA)
		return
	case e.sizedAway() && e.Mutex == nil && e.Data == nil: // none breaks a hold: nothing to measure
		fmt.Fprintf(b, "* Neutral, because %s counts none, by the size model %s: %s.\n", e.Kind, e.Model.Name, e.Model.Why)
		return
	case e.Mutex == nil && e.Data == nil:
		fmt.Fprintf(b, "* Bad, because %s is not measured for it: %s.\n", e.Kind, whereText(scenariosOf(e), o))
		return
	}
	if o.Kind != LockFree && e.Mutex != nil {
		fmt.Fprintf(b, "* %s, because under %s %s%s.\n", verdictWord(e.Mutex), e.Kind, inText(false, e.Mutex), traceText(e.Mutex))
	}
	if o.Kind != Lock || e.Data != e.Mutex {
		if e.Data == nil {
			fmt.Fprintf(b, "* Bad, because under %s what reaches the data is not measured: %s.\n", e.Kind, whereText(e.DataIn, o))
		} else {
			fmt.Fprintf(b, "* %s, because under %s %s%s.\n", verdictWord(e.Data), e.Kind, inText(true, e.Data), traceText(e.Data, string(e.Data.By)))
		}
	}
	if e.Refused != nil {
		fmt.Fprintf(b, "* Good, because the fence refused a stale write in %d of %d judged trials (%s).\n", e.Refused.P.K, e.Refused.P.N, e.Refused.By)
	}
}

func serversCell(c Cost) string {
	if c.NoLockService {
		return "0 (the store only)"
	}
	if c.Servers == 0 {
		return "not measured"
	}
	return fmt.Sprint(c.Servers)
}

func latencyCell(c Cost) string {
	if !c.Measured {
		return "not measured"
	}
	s := fmt.Sprintf("%s / %s / %s", stats.FormatDuration(c.P50), stats.FormatDuration(c.P99), stats.FormatDuration(c.P999))
	if !strings.HasPrefix(c.How, "open") {
		s += " (closed loop)"
	}
	return s
}

func capacityCell(c Cost) string {
	switch {
	case !c.Measured:
		return "not measured"
	case !c.HasCapacity:
		if c.Within {
			return "no open-loop cell (closed loop within)"
		}
		return "no open-loop cell (closed loop over)"
	case c.KeptRate == 0:
		return "none: the lowest rate tried broke it"
	}
	return stats.FormatRate(c.KeptRate) + "/s"
}

func sideCell(w *workload.Workload, o *Option, data bool) string {
	if !data && o.Kind == LockFree {
		return "no lock"
	}
	total, missing := Total(o.Faults, data)
	if len(missing) == 0 {
		return shortYearly(total, anySeen(o.Faults, data))
	}
	unmeasured, unsized := splitMissing(o.Faults, missing, data)
	if unsized == 0 && !anyMeasured(o.Faults, data) {
		return "not measured"
	}
	var parts []string
	if len(missing) < countedFaults(o.Faults) { // some fault is in the total
		parts = append(parts, shortYearly(total, anySeen(o.Faults, data))+" +")
	}
	if unmeasured > 0 {
		parts = append(parts, fmt.Sprintf("%d not measured", unmeasured))
	}
	if unsized > 0 {
		parts = append(parts, fmt.Sprintf("%d not sized", unsized))
	}
	s := strings.Replace(strings.Join(parts, ", "), "+,", "+", 1)
	if !data && w.Purpose == workload.Efficiency {
		s += fmt.Sprintf(" (at worst +%s)", count(UnmeasuredBound(o.Faults, missing)))
	}
	return s
}

// countedFaults is how many faults can strike the option with a rate above 0.
func countedFaults(es []Exposure) int {
	n := 0
	for _, e := range es {
		if e.NA == "" && e.PerYear > 0 {
			n++
		}
	}
	return n
}

// shortYearly is a count a year for a table cell: "1.2 (0.8-1.6)", or "≤ 0.35" when
// nothing was seen.
func shortYearly(e Expected, seen bool) string {
	if e.Lo == e.Hi { // a mechanism's count: no interval
		return count(e.Hi)
	}
	if !seen {
		return "≤ " + count(e.Hi)
	}
	return fmt.Sprintf("%s (%s-%s)", count(e.Central), count(e.Lo), count(e.Hi))
}

func anyMeasured(es []Exposure, data bool) bool {
	for _, e := range es {
		if m := e.side(data); e.NA == "" && e.PerYear > 0 && m != nil {
			return true
		}
	}
	return false
}

// meetsCell is the verdict in a word; the reasons follow the table, one line each.
func meetsCell(o *Option) string {
	switch {
	case o.Verdict.Meets && o.Verdict.Unmeasured > 0:
		return "yes, at worst"
	case o.Verdict.Meets:
		return "yes"
	case o.Verdict.RuledOut:
		return "ruled out"
	}
	return "not yet"
}

// writeReasons gives each option's verdict its reasons, one line each, below the table.
func writeReasons(b *strings.Builder, d *Decision) {
	for _, o := range d.Options {
		switch {
		case o.Verdict.Meets && o.Verdict.Unmeasured > 0:
			fmt.Fprintf(b, "* %s: yes, counting the unmeasured faults at their worst (%s).\n", o.Name, strings.Join(o.Verdict.Missing, ", "))
		case o.Verdict.Meets:
			fmt.Fprintf(b, "* %s: yes.\n", o.Name)
		default:
			fmt.Fprintf(b, "* %s: %s: %s.\n", o.Name, meetsCell(o), strings.Join(o.Verdict.Why, "; "))
		}
	}
	b.WriteString("\n")
}

func writeMore(b *strings.Builder, d *Decision, meta Meta) {
	b.WriteString("## More Information\n\n")
	for _, dir := range d.Inputs.BenchDirs {
		fmt.Fprintf(b, "* Benchmark results: %s (`lockbench run`; its report.md has every cell).\n", folderRef(meta.OutDir, dir))
	}
	for _, dir := range d.Inputs.SafetyDirs {
		fmt.Fprintf(b, "* Safety results: %s (`lockbench safety`; results.md has every variant and its trials).\n",
			folderRef(meta.OutDir, dir))
	}
	for _, f := range meta.Figures {
		fmt.Fprintf(b, "\n![%s](%s)\n\n%s\n", f.Name, f.File, f.Caption)
	}
	b.WriteString("\nHow each number is computed, and what the ADR cannot see: docs/adr.md of lockbench.\n")
}

// folderRef names a results folder: a link when it lies inside the ADR's folder, else its
// path alone, since the record's folder is what gets copied or shipped and a link out of it breaks.
func folderRef(adrDir, dir string) string {
	if r, ok := relInside(adrDir, dir); ok {
		return fmt.Sprintf("[%s](%s)", dir, r)
	}
	return fmt.Sprintf("`%s`, outside this record's folder", dir)
}

// relInside is dir relative to from, as a link, when dir lies at or below from.
func relInside(from, dir string) (string, bool) {
	absFrom, errFrom := filepath.Abs(from)
	absDir, errDir := filepath.Abs(dir)
	if errFrom != nil || errDir != nil {
		return "", false
	}
	r, err := filepath.Rel(absFrom, absDir)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// zeroRateText is what the results say of a fault the workload rates 0 a year.
func zeroRateText(e Exposure) string {
	if e.Mutex == nil && e.Data == nil {
		return "not measured"
	}
	var parts []string
	if e.Mutex != nil {
		parts = append(parts, "two holders in "+perFault(e.Mutex))
	}
	if e.Data != nil && e.Data != e.Mutex {
		parts = append(parts, "reaching the data in "+perFault(e.Data))
	}
	return strings.Join(parts, "; ")
}

// scenariosOf names the scenarios that would measure e, each once (the two sides are
// often the same scenario).
func scenariosOf(e Exposure) string {
	switch {
	case e.MutexIn == "" || e.MutexIn == e.DataIn:
		return e.DataIn
	case e.DataIn == "":
		return e.MutexIn
	}
	return e.MutexIn + "` or `" + e.DataIn
}

// whereText says where a missing measurement would come from.
func whereText(scenario string, o *Option) string {
	if scenario == "" {
		return "no lockbench scenario measures it for " + o.Name
	}
	return "the given results have no judged trial of `" + scenario + "` for it"
}
