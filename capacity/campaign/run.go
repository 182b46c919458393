package campaign

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/capacity/live"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
	"github.com/lockbench/lockbench/sweep"
)

// Run searches every strategy under every condition, one topology per strategy,
// recording each probe as a cell of dir and each search in capacity.json, with a line
// on stdout as each search ends. The run is complete unless ctx ended first.
func (p Plan) Run(ctx context.Context, dir string, stdout io.Writer) (capacity.Record, *resultsdir.Run, error) {
	need, _ := p.Params.Budget.MinSamples()
	b := p.Params.Budget
	rec := capacity.Record{SLO: p.Config.SLO, Metric: b.Metric, Percentile: string(b.Percentile),
		Budget: resultsdir.Duration(b.Limit), Precision: p.Params.Precision, MinSamples: need}
	run := &resultsdir.Run{Started: time.Now().UTC(), Environment: sweep.Environment(p.Sweep, os.Args)}
	run.Environment.RunID = p.RunID
	cfg := p.Sweep
	cfg.RunID = p.RunID
	runner := &sweep.Runner{Config: cfg, Out: dir, Run: run}
	if err := resultsdir.WriteRun(dir, run); err != nil {
		return rec, run, err
	}
	next := 0
	for _, st := range p.Config.Strategies {
		if err := p.searchStrategy(ctx, runner, st, &next, &rec, dir, stdout); err != nil {
			run.Finished = time.Now().UTC()
			_ = resultsdir.WriteRun(dir, run)
			return rec, run, err
		}
	}
	run.Complete, run.Finished = ctx.Err() == nil, time.Now().UTC()
	return rec, run, resultsdir.WriteRun(dir, run)
}

func (p Plan) searchStrategy(ctx context.Context, runner *sweep.Runner, st string, next *int, rec *capacity.Record,
	dir string, stdout io.Writer) error {
	session, err := runner.Session(ctx, st)
	if err != nil {
		return err
	}
	defer session.Close()
	for _, cond := range p.Conditions {
		began := time.Now()
		prober := &live.Prober{Session: session, Strategy: st, Condition: cond, Budget: p.Params.Budget, Next: next}
		res, err := capacity.Search(ctx, prober, p.Params)
		if err != nil {
			return err
		}
		s := capacity.NewSearchRecord(st, res, prober.Servers())
		s.Clients, s.Keys, s.Hold, s.TTL, s.Arrival = cond.Clients, cond.Keys, resultsdir.Duration(cond.Hold),
			resultsdir.Duration(cond.TTL), cond.Arrival
		s.Elapsed = resultsdir.Duration(time.Since(began))
		rec.Searches = append(rec.Searches, s)
		if err := capacity.WriteRecord(dir, *rec); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %s (%d probes, %s)\n", st, answer(s), len(s.Probes),
			time.Since(began).Round(100*time.Millisecond))
	}
	return nil
}

// answer says a search's answer in a few words.
func answer(s capacity.SearchRecord) string {
	switch {
	case s.GeneratorBound:
		return fmt.Sprintf(
			"generator-bound at %s/s (kept %s/s): the generator could not deliver more; no server capacity is claimed",
			stats.FormatRate(s.Broke), stats.FormatRate(s.Kept))
	case s.Kept == 0:
		return fmt.Sprintf("no rate kept the budget (lowest tried %s/s: %s)", stats.FormatRate(s.Broke), s.BrokeWhy)
	case s.Broke == 0:
		return fmt.Sprintf("at least %s/s: the budget held up to the highest rate allowed", stats.FormatRate(s.Kept))
	case !s.Converged:
		return fmt.Sprintf("%s/s, %s/s broke it (%s); not within the precision: out of probes", stats.FormatRate(s.Kept),
			stats.FormatRate(s.Broke), s.BrokeWhy)
	}
	return fmt.Sprintf("%s/s within %.1f%% (%s/s broke it: %s)", stats.FormatRate(s.Kept), 100*s.Precision,
		stats.FormatRate(s.Broke), s.BrokeWhy)
}
