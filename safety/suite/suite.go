package suite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/lockbench/lockbench/internal/interrupt"
	"github.com/lockbench/lockbench/internal/usage"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// Suite is one run of scenarios into a folder.
type Suite struct {
	Scenarios []lab.Scenario
	Env       *lab.Env
	Folder    *Folder
	// Cuts runs the scenarios that need partitions when the default provider refused
	// them; nil skips them (in a run of several) or fails (alone).
	Cuts           *CutProvider
	Figures        Drawer
	Stdout, Stderr io.Writer
}

// Run runs each scenario in turn, writing the folder after every trial, and at the end
// with the figures. A scenario the resumed run finished is kept as it was. When ctx
// ends (Ctrl-C) it stops, keeps the trials the scenario cut short got through, and
// returns the interruption; a scenario's failure also stops the run with what finished
// written, and bad params (a cross-param check) write nothing.
func (s *Suite) Run(ctx context.Context) error {
	var runErr error
	finished := 0
	folder, env, stdout, stderr := s.Folder, s.Env, s.Stdout, s.Stderr
	env.OnTrial = folder.writePartial
	for _, sc := range s.Scenarios {
		if done := folder.resumed[sc.Name()]; done != nil && done.Complete {
			fmt.Fprintf(stderr, "safety: %s finished before the interruption: kept as it was\n", sc.Name())
			folder.keep(sc.Name(), done)
			finished++
			continue
		}
		start := time.Now()
		if env.Shard.Whole() {
			fmt.Fprintf(stderr, "safety: %s, %d trials per variant, seed %d\n", sc.Name(), env.Trials, env.Seed)
		} else {
			fmt.Fprintf(stderr, "safety: %s, worker %s: trials n %% %d == %d of %d per variant, seed %d\n", sc.Name(),
				env.Shard, env.Shard.Of, env.Shard.Index, env.Trials, env.Seed)
		}
		rep, err := lab.Run(ctx, sc, env)
		if err != nil && errors.Is(err, lab.ErrNeedsPartitions) && len(s.Scenarios) > 1 && s.Cuts != nil && ctx.Err() == nil {
			rep, err = s.runOnCuttingProvider(ctx, sc, err)
		}
		var perr *lab.ParamError
		if errors.As(err, &perr) {
			return usage.Errorf("--param: %v", err)
		}
		if ctx.Err() != nil {
			folder.keep(sc.Name(), rep) // the trials that finished before the interrupt
			break
		}
		if err != nil && errors.Is(err, lab.ErrNeedsPartitions) && len(s.Scenarios) > 1 {
			fmt.Fprintf(stderr, "safety: %s skipped: %v\n", sc.Name(), err) // all: the others still run
			finished++
			continue
		}
		if err != nil {
			folder.keep(sc.Name(), rep)
			runErr = fmt.Errorf("scenario %s: %w", sc.Name(), err)
			break
		}
		fmt.Fprintf(stderr, "safety: %s done in %v\n", sc.Name(), time.Since(start).Round(time.Second))
		fmt.Fprintln(stdout, rep.Table())
		folder.keep(sc.Name(), rep)
		finished++
	}
	interrupted := ctx.Err() != nil
	if len(folder.res.Reports) > 0 {
		if err := folder.writeFinal(stdout, finished == len(s.Scenarios), s.Figures); err != nil {
			return err
		}
	}
	if interrupted {
		fmt.Fprintf(stdout, "\ninterrupted after %d of %d scenarios", finished, len(s.Scenarios))
		if len(folder.res.Reports) > 0 {
			fmt.Fprintf(stdout, "; every trial that finished is in %s (carry on: lockbench safety --resume %s)", folder.dir,
				folder.dir)
		}
		fmt.Fprintln(stdout)
		return interrupt.Of(ctx)
	}
	return runErr
}

// runOnCuttingProvider runs again, on the fallback provider, a scenario that refused
// the default one for lack of partitions; without a fallback it returns the refusal.
func (s *Suite) runOnCuttingProvider(ctx context.Context, sc lab.Scenario, refusal error) (*results.Report, error) {
	start, err := s.Cuts.start()
	if err != nil {
		return nil, fmt.Errorf("%w (and provider %s: %v)", refusal, s.Cuts.name, err)
	}
	fmt.Fprintf(s.Stderr, "safety: %s cuts links, which processes cannot: its servers run on provider %s\n", sc.Name(),
		s.Cuts.name)
	moved := *s.Env
	moved.Start, moved.Partitions = start, partitionsOn(s.Cuts.name)
	rep, err := lab.Run(ctx, sc, &moved)
	if rep != nil {
		rep.Provider = s.Cuts.name
	}
	return rep, err
}
