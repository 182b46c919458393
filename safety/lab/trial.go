package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/check"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/results"
)

// defaultLinearTimeout bounds porcupine per history; trial histories are tens of events.
const defaultLinearTimeout = 10 * time.Second

// Variant is what every scenario's own variant type embeds: the result its trials
// fill, with the scenario's named behaviour fields beside it.
type Variant struct{ *results.Variant }

// Result is the variant's results, which its trials fill.
func (v Variant) Result() *results.Variant { return v.Variant }

// Trial is one trial in progress: its history, its inputs, and the proof that its
// fault happened. Only a trial with a proof is judged.
type Trial struct {
	N    int
	Rec  *history.Recorder
	Rand *rand.Rand
	// Key is a lock key of this trial's own.
	Key    string
	Inputs map[string]float64
	proof  []string
	counts map[results.Measure]int
}

// Input records a number the trial drew or measured, for plots by any axis.
func (t *Trial) Input(name string, v float64) { t.Inputs[name] = v }

// Count sets measure m of this trial to n, as measured on the resource itself (a
// database read back and audited against every change intended on it) rather than
// read from the history; it replaces the checkers' count of m. It is kept only if the
// trial is judged.
func (t *Trial) Count(m results.Measure, n int) {
	if t.counts == nil {
		t.counts = map[results.Measure]int{}
	}
	t.counts[m] = n
}

// Prove records what the trial observed to show its fault happened. A scenario
// calls it only after reading the evidence back (from the node, the resource, the
// model): a fault merely injected proves nothing.
func (t *Trial) Prove(format string, args ...any) {
	t.proof = append(t.proof, fmt.Sprintf(format, args...))
}

// noFault is a trial whose fault could not be shown; it is not judged.
type noFault struct{ why string }

func (n *noFault) Error() string { return "fault not produced: " + n.why }

// NoFault ends a trial as fault_not_produced.
func NoFault(format string, args ...any) error { return &noFault{why: fmt.Sprintf(format, args...)} }

// Late is a trial whose fault could not be shown because the client process was late
// for its own race (a window missed on a busy machine): fault_not_produced, never judged.
func Late(format string, args ...any) error { return NoFault(format, args...) }

// notGranted is a first grant refused by the safety mechanism itself.
type notGranted struct{ err error }

func (n *notGranted) Error() string { return "not granted: " + n.err.Error() }

// trialError is a failure of a named kind.
type trialError struct {
	kind string
	err  error
}

func (e *trialError) Error() string { return e.kind + ": " + e.err.Error() }
func (e *trialError) Unwrap() error { return e.err }

// Failed ends a trial as an error of kind, whatever err is.
func Failed(kind string, err error) error { return &trialError{kind, err} }

// FirstGrant classifies the first holder's failed acquire: a refusal by WAIT or by
// min-replicas-to-write is not_granted; anything else is an error of kind
// "first-acquire", never a refusal.
func FirstGrant(err error) error {
	if IsReplicationRefusal(err) {
		return &notGranted{err}
	}
	return Failed("first-acquire", err)
}

// IsReplicationRefusal says whether err is WAIT's too-few-acknowledgements or the
// server's NOREPLICAS (min-replicas-to-write): the grant refused on purpose.
func IsReplicationRefusal(err error) bool {
	return errors.Is(err, locks.ErrNotReplicated) || strings.Contains(err.Error(), "NOREPLICAS")
}

// errorKind names what kind of failure err is, for the error counts.
func errorKind(err error) string {
	var te *trialError
	var ne net.Error
	switch {
	case errors.As(err, &te):
		return te.kind
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, ErrCrashed):
		return "client-crashed"
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF),
		errors.Is(err, net.ErrClosed), errors.As(err, &ne):
		return "connection"
	}
	return "other"
}

// RunTrials runs every variant's trials in order and returns the report that holds
// them: the loop every scenario shares.
func RunTrials[V interface{ Result() *results.Variant }](ctx context.Context, env *Env, variants []V,
	trial func(ctx context.Context, v V, t *Trial) error) (*results.Report, error) {
	return RunTrialsAtOnce(ctx, env, variants, 1, trial)
}

// RunTrialsAtOnce is RunTrials with up to parallel trials of a variant at once
// (RunVariant: each trial keeps its seed and key, outcomes are recorded in trial
// order); trial must be safe to run side by side with itself.
func RunTrialsAtOnce[V interface{ Result() *results.Variant }](ctx context.Context, env *Env, variants []V,
	parallel int, trial func(ctx context.Context, v V, t *Trial) error) (*results.Report, error) {
	rep := env.NewReport()
	for _, v := range variants {
		if err := env.RunVariant(ctx, env.Scenario(), v.Result(), parallel,
			func(ctx context.Context, t *Trial) error { return trial(ctx, v, t) }); err != nil {
			return nil, err
		}
		rep.Variants = append(rep.Variants, v.Result())
	}
	return rep, nil
}

// RunTrial runs one trial and adds its outcome to v. It returns an error only when
// the run must stop (ctx ended: Ctrl-C, or a trial outside the run's shard); every
// other failure is the trial's outcome.
// A trial the interrupted run being resumed finished is not run again: its record is
// added as it was.
func (e *Env) RunTrial(ctx context.Context, scenario string, v *results.Variant, n int,
	fn func(ctx context.Context, t *Trial) error) error {
	if !e.Shard.Holds(n) {
		return errOutsideShard(scenario, n, e.Shard)
	}
	if rec, ok := e.resumedTrial(v, n); ok {
		e.replay(scenario, v, rec)
		return nil
	}
	done, err := e.runOne(ctx, scenario, v.Name, n, fn)
	if err != nil {
		return err
	}
	e.finish(scenario, v, done)
	return nil
}

// resumedTrial is trial n of v as the interrupted run being resumed recorded it.
func (e *Env) resumedTrial(v *results.Variant, n int) (results.Trial, bool) {
	return e.progress.finished(v.Name, n, e.TrialSeed(v.Name, n))
}

// ranTrial is a trial run and judged, not yet added to its variant: trials running
// side by side are added in trial order.
type ranTrial struct {
	rec  results.Trial
	page string // porcupine's page of an illegal history, "" for none
}

// runOne runs trial n of variant and judges it; it touches nothing shared but the log
// and its own page, so trials may run side by side. The error is ctx's, when it ended.
func (e *Env) runOne(ctx context.Context, scenario, variant string, n int,
	fn func(ctx context.Context, t *Trial) error) (ranTrial, error) {
	t := &Trial{N: n, Rec: history.NewRecorder(), Rand: e.Rand(variant, n), Inputs: map[string]float64{},
		Key: fmt.Sprintf("%s:%s:%d:%d", scenario, variant, e.Seed, n)}
	start := time.Now()
	err := fn(ctx, t)
	if ctx.Err() != nil {
		return ranTrial{}, ctx.Err()
	}
	rec := results.Trial{N: n, Seed: e.TrialSeed(variant, n), Inputs: t.Inputs, Proof: t.proof,
		Seconds: time.Since(start).Seconds()}
	var nf *noFault
	var ng *notGranted
	var page string
	switch {
	case errors.As(err, &nf):
		rec.Outcome, rec.Message = results.FaultNotProduced, nf.why
	case errors.As(err, &ng):
		rec.Outcome, rec.Message = results.NotGranted, ng.err.Error()
	case err != nil:
		rec.Outcome, rec.ErrorKind, rec.Message = results.Errored, errorKind(err), err.Error()
	case len(t.proof) == 0:
		// The structural rule: no proof, no verdict.
		rec.Outcome, rec.ErrorKind, rec.Message = results.Errored, "unproven", "the trial ended without proving its fault"
	default:
		rec.Outcome = results.Judged
		timeout := e.LinearTimeout
		if timeout <= 0 {
			timeout = defaultLinearTimeout
		}
		verdict := check.Judge(t.Rec.History(), timeout)
		rec.Counts, rec.Overlap, rec.WindowMs = countsOf(verdict)
		for m, n := range t.counts {
			rec.Counts[m] = n
		}
		if verdict.Linear.Result == check.NotLinear {
			page = e.drawLinearization(scenario, variant, n, verdict.Linear)
		}
	}
	return ranTrial{rec: rec, page: page}, nil
}

// finish adds a trial run to v and hands the report on.
func (e *Env) finish(scenario string, v *results.Variant, done ranTrial) {
	if done.page != "" {
		v.Visualizations = append(v.Visualizations, done.page)
	}
	e.record(v, done.rec)
	e.Log("%s/%s trial %d: %s %s", scenario, v.Name, done.rec.N, done.rec.Outcome, summarize(done.rec))
	e.trialDone(v)
}

// countsOf flattens a verdict into the measures of results.
func countsOf(v check.Verdict) (map[results.Measure]int, []float64, float64) {
	c := map[results.Measure]int{
		results.Violations:      v.Mutex.Violations,
		results.LostLocks:       v.Lost.Lost,
		results.Orphans:         v.Orphan.Orphans,
		results.ReissuedTokens:  v.Tokens.Reissued,
		results.FenceViolations: v.Fence.Violations,
		results.StaleAccepted:   v.Fence.StaleAccepted,
		results.StaleRejected:   v.Fence.StaleRejected,
		results.HonestRejected:  v.Writes.HonestRefused,
		results.Diverged:        v.Writes.Diverged,
		results.SecondGranted:   v.Grants.Second,
	}
	switch v.Linear.Result {
	case check.NotLinear:
		c[results.NotLinearizable] = 1
	case check.LinearUnknown:
		c[results.LinearUnknown] = 1
	}
	var overlaps []float64
	for _, o := range v.Mutex.Overlaps {
		overlaps = append(overlaps, Millis(o.Duration))
	}
	for _, w := range v.SplitBrain.Windows {
		if w.Duration > 0 {
			c[results.SplitBrainWindow]++
		}
	}
	return c, overlaps, Millis(v.SplitBrain.Longest())
}

func summarize(t results.Trial) string {
	if t.Outcome != results.Judged {
		return t.Message
	}
	var parts []string
	for _, m := range results.Measures {
		if t.Counts[m] > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", m, t.Counts[m]))
		}
	}
	return strings.Join(append(parts, "proof: "+strings.Join(t.Proof, "; ")), " ")
}

// drawLinearization writes porcupine's page of an illegal history; "" when the run
// writes none or it failed (noted in the log).
func (e *Env) drawLinearization(scenario, variant string, n int, r check.LinearReport) string {
	if e.vizDir() == "" {
		return ""
	}
	path := e.vizPath(scenario, variant, n)
	if err := porcupine.VisualizePath(check.MutexModel, r.Info, path); err != nil {
		e.Log("porcupine page %s: %v", path, err)
		return ""
	}
	return path
}

// vizPath is where trial n's porcupine page goes; "" when the run writes none.
func (e *Env) vizPath(scenario, variant string, n int) string {
	if e.OutDir == "" {
		return ""
	}
	name := strings.NewReplacer("/", "-", ":", "-", " ", "-", "=",
		"").Replace(fmt.Sprintf("%s-%s-trial%03d", scenario, variant, n))
	return filepath.Join(e.OutDir, "viz", name+".html")
}
