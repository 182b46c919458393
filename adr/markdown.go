package adr

import (
	_ "embed"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

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

// adrTemplateText holds the record's prose; this file only prepares the values it shows.
//
//go:embed adr.md.tmpl
var adrTemplateText string

var adrTemplate = template.Must(template.New("adr.md.tmpl").Parse(adrTemplateText))

// Markdown writes the decision as an MADR 4.0 record.
func Markdown(d *Decision, meta Meta) string {
	var b strings.Builder
	if err := adrTemplate.ExecuteTemplate(&b, "adr", recordView(d, meta)); err != nil {
		panic("adr.md.tmpl: " + err.Error()) // the template and its values are both this package's
	}
	return b.String()
}

// adrView is every value the record shows, in the template's sections.
type adrView struct {
	Date, Title  string
	Summary      []string // the first screen: the decision and why not the others
	Context      contextView
	Drivers      driversView
	Options      []consideredOption
	Chosen       *chosenView
	Undecided    undecidedView
	Confirmation confirmationView
	ProsCons     prosConsView
	More         moreView
}

func recordView(d *Decision, meta Meta) adrView {
	w := d.Workload
	title := w.Title
	if title == "" {
		title = "Which lock for " + w.Protects
	}
	v := adrView{
		Date:    meta.Date,
		Title:   title,
		Summary: summaryOf(d),
		Context: contextView{
			Protects: w.Protects, Correctness: w.Purpose == workload.Correctness,
			Rate: stats.FormatRate(w.LockRate), Hold: w.HoldD.String(), TTL: w.TTLD.String(),
			Command: meta.Command, WorkloadFile: meta.WorkloadFile,
		},
		Drivers:      driversOf(d),
		Options:      consideredOptions(d),
		Confirmation: confirmationOf(d, meta),
		ProsCons:     prosConsOf(d),
		More:         moreOf(d, meta),
	}
	if d.Chosen != nil {
		v.Chosen = chosenOf(d)
	} else {
		v.Undecided = undecidedOf(d)
	}
	return v
}

type contextView struct {
	Protects, Rate, Hold, TTL string
	Correctness               bool
	Command, WorkloadFile     string
}

type driversView struct {
	SLO, Rate, Budget     string
	Correctness           bool
	Faults                []faultRateRow
	Occupancy, SizeModels string // sentences of their own files' writers
	ShortPauses           *shortPauses
	Floor                 string // the queueing floor against the budget, one sentence
}

// faultRateRow is one row of the workload's fault rates.
type faultRateRow struct{ Kind, PerYear, Counted, Source string }

// shortPauses is set when the pauses counted include some that do not outlast the TTL.
type shortPauses struct{ LongerThan, TTL string }

func driversOf(d *Decision) driversView {
	w := d.Workload
	v := driversView{SLO: w.SLO.String(), Rate: stats.FormatRate(w.LockRate),
		Correctness: w.Purpose == workload.Correctness, Floor: floorText(d)}
	v.Budget = budgetText(w)
	for _, k := range w.FaultKinds() {
		r := w.Faults.Rate(k)
		counted := ""
		switch k {
		case backend.ClientPauseFault:
			counted = "pauses longer than " + r.LongerThan
		case backend.ClockJumpFault:
			counted = "jumps above " + r.Above
		}
		v.Faults = append(v.Faults, faultRateRow{fmt.Sprint(k), Plain(r.PerYear), counted, r.Source})
	}
	var occupancy, sizeModels strings.Builder
	writeOccupancy(&occupancy, w)
	writeSizeModels(&sizeModels, d)
	v.Occupancy, v.SizeModels = occupancy.String(), sizeModels.String()
	if p := w.Faults.ClientPause; p != nil {
		if lt, _ := workload.PositiveDuration(p.LongerThan); lt < w.TTLD {
			v.ShortPauses = &shortPauses{p.LongerThan, w.TTLD.String()}
		}
	}
	return v
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

// consideredOption is one line of Considered Options.
type consideredOption struct{ Name, Kind, Deployment string }

func consideredOptions(d *Decision) []consideredOption {
	var out []consideredOption
	for _, o := range d.Options {
		dep := o.Cost.Deployment
		if dep == "" {
			dep = "deployment not benchmarked"
		}
		out = append(out, consideredOption{o.Name, kindWords(o), dep})
	}
	return out
}

// side is what the purpose counts: data for correctness, two holders for efficiency.
func side(w *workload.Workload, o *Option) bool {
	return w.Purpose == workload.Correctness || o.Kind == LockFree
}

// floorText says where the queueing floor leaves the latency budget: within it, or out
// of every lock's reach and what would bring it back.
func floorText(d *Decision) string {
	f, w := d.Floor, d.Workload
	switch {
	case f == nil && d.FloorWhy != "":
		return "The queueing floor could not be computed: " + d.FloorWhy + "."
	case f == nil:
		return ""
	case f.Meets():
		return fmt.Sprintf("The queueing floor (a perfect lock: M/G/1 per key, FIFO, no lock overhead) keeps it: %s of "+
			"requests wait longer than %s for a held key (%s allows %s; the floor's %s: %s; %s).",
			shareText(f.Exceed), stats.FormatDuration(w.SLO.Budget), f.Percentile, percent(f.Allowed), f.Percentile, f.Wait,
			f.Method)
	}
	return fmt.Sprintf("**No lock can meet the latency budget**: at the queueing floor (a perfect lock: M/G/1 per key, "+
		"FIFO, no lock overhead) %s of requests wait longer than %s for a held key, over the %s a %s allows (the floor's "+
		"%s: %s; %s). What would: %s.", shareText(f.Exceed), stats.FormatDuration(w.SLO.Budget), percent(f.Allowed),
		f.Percentile, f.Percentile, f.Wait, f.Method, f.whatWould(w))
}

// undecidedView is the outcome when no option is chosen.
type undecidedView struct {
	NoLock   bool // the queueing floor rules every lock out (the drivers say why)
	Cheapest *cheapestOpen
	InTheWay []optionReason
}

// cheapestOpen is the cheapest option no measurement rules out, and what it lacks.
type cheapestOpen struct{ Name, Servers, Missing string }

type optionReason struct{ Name, Why string }

func undecidedOf(d *Decision) undecidedView {
	var v undecidedView
	closest := closestCandidates(d)
	if len(closest) > 0 && !closest[0].Verdict.RuledOut {
		c := closest[0]
		v.Cheapest = &cheapestOpen{c.Name, serversText(c.Cost), strings.Join(c.Verdict.Missing, ", ")}
	}
	var floored []string // ruled out by the floor alone: one line for all
	for _, o := range closest {
		if o.beyondFloor != "" && len(o.Verdict.Why) == 1 {
			floored = append(floored, o.Name)
			continue
		}
		v.InTheWay = append(v.InTheWay, optionReason{o.Name, strings.Join(o.Verdict.Why, "; ")})
	}
	if len(floored) > 0 {
		v.NoLock = true
		v.InTheWay = append(v.InTheWay, optionReason{"every lock (" + strings.Join(floored, ", ") + ")",
			"the queueing floor alone misses the latency budget (Decision Drivers)"})
	}
	return v
}

// chosenView is the chosen option and its consequences.
type chosenView struct {
	Name, Servers, Percentile, AtBudget string
	Correctness                         bool
	Budget, Yearly                      string
	P50, P99, P999, How                 string
	CapacityKept, CapacityMissed        string // at most one is set
	Consequences                        []consequence
	NotCounted                          []string // faults the workload rates 0 a year
	RateBound                           bool
	Unmeasured                          *unmeasuredWorst
}

// consequence is what one counted fault does to the chosen option.
type consequence struct {
	Verdict, Kind, PerYear, In string
	LockFails                  *lockFails
}

// lockFails is a fenced option's lock failing under a fault, the fence keeping the data.
type lockFails struct {
	Kind, In string
	Refused  *refusal
}

// refusal is the fence refusing stale writes in K of N judged trials.
type refusal struct {
	K, N int
	By   string
}

// unmeasuredWorst is what the faults not measured add at their worst.
type unmeasuredWorst struct{ Missing, Count string }

func chosenOf(d *Decision) *chosenView {
	w, o := d.Workload, d.Chosen
	counts := side(w, o)
	v := &chosenView{
		Name: o.Name, Servers: serversText(o.Cost), Percentile: fmt.Sprint(w.SLO.Percentile),
		AtBudget:    stats.FormatDuration(o.Cost.AtBudget),
		Correctness: w.Purpose == workload.Correctness,
		Yearly:      yearly(o.Verdict.Year, anySeen(o.Faults, counts)),
		P50:         stats.FormatDuration(o.Cost.P50), P99: stats.FormatDuration(o.Cost.P99),
		P999: stats.FormatDuration(o.Cost.P999), How: o.Cost.How,
		RateBound: w.Purpose == workload.Correctness && anyRateBound(o.Faults),
	}
	if v.Correctness {
		v.Budget = Plain(*w.ViolationBudget)
		v.Yearly = yearly(o.Verdict.Year, anySeen(o.Faults, true))
	}
	switch {
	case o.Cost.HasCapacity && o.Cost.KeptRate >= w.LockRate:
		v.CapacityKept = o.Cost.Capacity
	case o.Cost.HasCapacity:
		v.CapacityMissed = o.Cost.Capacity
	}
	for _, e := range o.Faults {
		if e.NA != "" || e.PerYear == 0 {
			continue
		}
		m := e.side(counts)
		if m == nil {
			continue // said below, with the worst it can add
		}
		c := consequence{Verdict: verdictWord(m), Kind: fmt.Sprint(e.Kind), PerYear: Plain(e.PerYear), In: inText(counts, m)}
		if o.Kind == Fenced && e.Mutex != nil && e.Mutex.P.K > 0 {
			c.LockFails = &lockFails{Kind: fmt.Sprint(e.Kind), In: inText(false, e.Mutex)}
			if e.Refused != nil {
				c.LockFails.Refused = &refusal{K: e.Refused.P.K, N: e.Refused.P.N}
			}
		}
		v.Consequences = append(v.Consequences, c)
	}
	for _, e := range o.Faults {
		if e.NA == "" && e.PerYear == 0 {
			v.NotCounted = append(v.NotCounted, fmt.Sprint(e.Kind))
		}
	}
	if o.Verdict.Unmeasured > 0 {
		v.Unmeasured = &unmeasuredWorst{strings.Join(o.Verdict.Missing, ", "), count(o.Verdict.Unmeasured)}
	}
	return v
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
		if e.NA == "" && e.PerYear > 0 && e.Data != nil && e.Data.Demo == NotDemo && e.Data.Uncounted == "" &&
			e.Data.P.K == 0 {
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

// confirmationView is the commands that re-measure and regenerate the record.
type confirmationView struct {
	BenchRuns, SafetyRuns []commandRun
	Command               string
	AnyMissing            bool
}

// commandRun is a command and the results folder it wrote.
type commandRun struct{ Command, Dir string }

func confirmationOf(d *Decision, meta Meta) confirmationView {
	v := confirmationView{Command: meta.Command}
	for i, dir := range d.Inputs.BenchDirs {
		cmd := strings.Join(d.Inputs.Runs[i].Environment.CommandLine, " ")
		if cmd == "" {
			cmd = "lockbench run (command line not recorded)"
		}
		v.BenchRuns = append(v.BenchRuns, commandRun{cmd, dir})
	}
	for i, dir := range d.Inputs.SafetyDirs {
		v.SafetyRuns = append(v.SafetyRuns, commandRun{safetyCommand(d.Inputs.SafetyCommands[i]), dir})
	}
	for _, o := range d.Options {
		v.AnyMissing = v.AnyMissing || len(o.Verdict.Missing) > 0
	}
	return v
}

// safetyCommand rebuilds the safety run's command from what results.json recorded.
func safetyCommand(c *results.Command) string {
	if c == nil {
		return "lockbench safety (command not recorded)"
	}
	s := fmt.Sprintf("lockbench safety --scenario %s --trials %d --seed %d", strings.Join(c.Scenarios, ","), c.Trials,
		c.Seed)
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

// prosConsView is the options' table, the reasons for their verdicts, and each option's lines.
type prosConsView struct {
	Rate, SLO string
	Rows      []optionRow
	Reasons   []verdictReason
	Options   []optionDetail
}

// optionRow is one row of the options' table.
type optionRow struct {
	Name, Servers, Latency, Capacity, TwoHolders, ReachingData, Meets string
}

// verdictReason is why one option meets the purpose or not.
type verdictReason struct {
	Name          string
	Meets         bool
	AtWorst       bool // meets only counting the unmeasured faults at their worst
	Missing, Cell string
	Why           string
}

// optionDetail is one option's pros and cons: its cost, then each fault.
type optionDetail struct {
	Name   string
	Cost   Cost
	Faults []faultLine
	// BeyondFloor: the queueing floor rules it out; its cost and unmeasured faults are
	// not said (no measurement of them could change that).
	BeyondFloor bool
}

// faultLine is what one fault does to an option; Case says which sentence says it.
type faultLine struct {
	Case            string // uncounted, not applicable, sized away, not measured, or "" (measured)
	Kind, Detail    string
	ModelName       string
	Mutex, Data     *sideLine
	DataNotMeasured string // where the data side would be measured
	Window          string // how long a fault that grants for a window went on granting
	Refused         *refusal
}

// sideLine is one side (two holders or the data) of a measured fault.
type sideLine struct{ Verdict, In, Trace string }

func prosConsOf(d *Decision) prosConsView {
	w := d.Workload
	v := prosConsView{Rate: stats.FormatRate(w.LockRate), SLO: w.SLO.String()}
	for _, o := range d.Options {
		v.Rows = append(v.Rows, optionRow{o.Name, serversCell(o.Cost), latencyCell(o.Cost), capacityCell(o.Cost),
			sideCell(w, o, false), sideCell(w, o, true), meetsCell(o)})
		v.Reasons = append(v.Reasons, verdictReason{
			Name: o.Name, Meets: o.Verdict.Meets, AtWorst: o.Verdict.Meets && o.Verdict.Unmeasured > 0,
			Missing: strings.Join(o.Verdict.Missing, ", "), Cell: meetsCell(o), Why: strings.Join(shortWhy(o), "; "),
		})
		detail := optionDetail{Name: o.Name, Cost: o.Cost, BeyondFloor: o.beyondFloor != ""}
		for _, e := range o.Faults {
			if l := faultLineOf(o, e); !detail.BeyondFloor || l.Case != "not measured" {
				detail.Faults = append(detail.Faults, l)
			}
		}
		v.Options = append(v.Options, detail)
	}
	return v
}

// shortWhy is the option's reasons with the queueing floor's said once, in the drivers.
func shortWhy(o *Option) []string { return shortReasons(o, o.Verdict.Why) }

// shortReasons are reasons of o's with the queueing floor's said once, in the drivers.
func shortReasons(o *Option, reasons []string) []string {
	var out []string
	for _, why := range reasons {
		if why == o.beyondFloor {
			why = "no lock can meet the latency budget (the queueing floor, under Decision Drivers)"
		}
		out = append(out, why)
	}
	return out
}

func faultLineOf(o *Option, e Exposure) faultLine {
	l := faultLine{Kind: fmt.Sprint(e.Kind)}
	switch {
	case e.NA == "" && e.PerYear == 0:
		l.Case, l.Detail = "uncounted", zeroRateText(e)
		return l
	case e.NA != "":
		l.Case, l.Detail = "not applicable", e.NA
		return l
	case e.sizedAway() && e.Mutex == nil && e.Data == nil: // none breaks a hold: nothing to measure
		l.Case, l.ModelName, l.Detail = "sized away", e.Model.Name, e.Model.Why
		return l
	case e.Mutex == nil && e.Data == nil:
		l.Case, l.Detail = "not measured", whereText(scenariosOf(e), o)
		return l
	}
	if o.Kind != LockFree && e.Mutex != nil {
		l.Mutex = &sideLine{verdictWord(e.Mutex), inText(false, e.Mutex), traceText(e.Mutex)}
	}
	if e.Window != nil {
		l.Window = e.Window.text(e.LocksHeld - e.Window.Granted)
	}
	if o.Kind != Lock || e.Data != e.Mutex {
		if e.Data == nil {
			l.DataNotMeasured = whereText(e.DataIn, o)
		} else {
			l.Data = &sideLine{verdictWord(e.Data), inText(true, e.Data), traceText(e.Data, string(e.Data.By))}
		}
	}
	if e.Refused != nil {
		l.Refused = &refusal{K: e.Refused.P.K, N: e.Refused.P.N, By: fmt.Sprint(e.Refused.By)}
	}
	return l
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
	s := fmt.Sprintf("%s / %s / %s", stats.FormatDuration(c.P50), stats.FormatDuration(c.P99),
		stats.FormatDuration(c.P999))
	if !strings.HasPrefix(c.How, "open") {
		s += " (closed loop)"
	}
	return s
}

func capacityCell(c Cost) string {
	switch {
	case !c.Measured:
		return "not measured"
	case c.NoCapacity != "":
		within := "over"
		if c.Within {
			within = "within"
		}
		return fmt.Sprintf("not read: %s (%s)", c.NoCapacity, within)
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
		if bound := UnmeasuredBound(o.Faults, missing); math.IsInf(bound, 1) {
			s += " (at worst: no bound, a window not measured)"
		} else {
			s += fmt.Sprintf(" (at worst +%s)", count(bound))
		}
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

// moreView is the results folders and figures the record rests on.
type moreView struct {
	BenchDirs, SafetyDirs []string // as folderRef names them
	Figures               []Figure
}

func moreOf(d *Decision, meta Meta) moreView {
	v := moreView{Figures: meta.Figures}
	for _, dir := range d.Inputs.BenchDirs {
		v.BenchDirs = append(v.BenchDirs, folderRef(meta.OutDir, dir))
	}
	for _, dir := range d.Inputs.SafetyDirs {
		v.SafetyDirs = append(v.SafetyDirs, folderRef(meta.OutDir, dir))
	}
	return v
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
