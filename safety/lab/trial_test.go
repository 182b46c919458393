package lab_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// TestRunTrialOutcomes: what a trial function returns decides its outcome, and a
// trial that proved nothing is never judged.
func TestRunTrialOutcomes(t *testing.T) {
	env := &lab.Env{Trials: 1, Seed: 1}
	v := &results.Variant{Name: "v", Measure: results.Violations}
	cases := []struct {
		fn   func(ctx context.Context, t *lab.Trial) error
		want results.Outcome
		kind string
	}{
		{func(context.Context, *lab.Trial) error { return nil }, results.Errored, "unproven"},
		{func(_ context.Context, t *lab.Trial) error { t.Prove("seen"); return nil }, results.Judged, ""},
		{func(context.Context, *lab.Trial) error { return lab.NoFault("no promotion") }, results.FaultNotProduced, ""},
		{func(context.Context, *lab.Trial) error {
			return lab.FirstGrant(fmt.Errorf("%w: 0 of 1", locks.ErrNotReplicated))
		}, results.NotGranted, ""},
		{func(context.Context, *lab.Trial) error {
			return lab.FirstGrant(errors.New("NOREPLICAS Not enough good replicas to write."))
		}, results.NotGranted, ""},
		{func(context.Context, *lab.Trial) error {
			return lab.FirstGrant(errors.New("dial tcp: connection refused"))
		}, results.Errored, "first-acquire"},
		{func(context.Context, *lab.Trial) error { return lab.Failed("second-acquire", net.ErrClosed) }, results.Errored, "second-acquire"},
		{func(context.Context, *lab.Trial) error { return fmt.Errorf("wait: %w", context.DeadlineExceeded) }, results.Errored, "timeout"},
	}
	for i, c := range cases {
		if err := env.RunTrial(context.Background(), "s", v, i, c.fn); err != nil {
			t.Fatal(err)
		}
		got := v.Trials[i]
		if got.Outcome != c.want || got.ErrorKind != c.kind {
			t.Errorf("case %d: outcome %s kind %q (%s), want %s kind %q", i, got.Outcome, got.ErrorKind, got.Message, c.want, c.kind)
		}
	}
	if v.Tally.Judged != 1 || v.Tally.NotGranted != 2 || v.Tally.FaultNotProduced != 1 || v.Tally.Errors["unproven"] != 1 {
		t.Errorf("tally %+v", v.Tally)
	}
	// A run cut short stops at once and records nothing for the trial.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := env.RunTrial(ctx, "s", v, 99, func(context.Context, *lab.Trial) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v, want context.Canceled", err)
	}
	if len(v.Trials) != len(cases) {
		t.Errorf("a cancelled trial was recorded")
	}
}

// TestJudgedOnlyWithProofInHistory: the rule holds whatever the history says.
func TestJudgedOnlyWithProofInHistory(t *testing.T) {
	env := &lab.Env{Trials: 1}
	v := &results.Variant{Name: "v", Measure: results.Violations}
	_ = env.RunTrial(context.Background(), "s", v, 0, func(_ context.Context, t *lab.Trial) error {
		t.Rec.Record(history.Event{Client: "A", Kind: history.Entered, Resource: "r"})
		t.Rec.Record(history.Event{Client: "B", Kind: history.Entered, Resource: "r"})
		return nil
	})
	if v.Tally.Judged != 0 || v.Tally.Sums[results.Violations] != 0 {
		t.Errorf("an unproven trial with two holders was judged: %+v", v.Tally)
	}
}

// TestAStalledTrialIsItsOutcome: a client deadline is the trial's error and a client
// late for its race is fault_not_produced, each run once: no environment runs a trial
// again until it passes (tests size their races so that load cannot decide them).
func TestAStalledTrialIsItsOutcome(t *testing.T) {
	v := &results.Variant{Name: "v", Measure: results.Violations}
	env := &lab.Env{Trials: 1, Seed: 1}
	for n, tc := range []struct {
		err     error
		outcome results.Outcome
		kind    string
	}{
		{lab.Failed("second-acquire", fmt.Errorf("node #0: %w", context.DeadlineExceeded)), results.Errored, "second-acquire"},
		{lab.Late("B missed the window"), results.FaultNotProduced, ""},
	} {
		calls := 0
		fn := func(context.Context, *lab.Trial) error { calls++; return tc.err }
		if err := env.RunTrial(context.Background(), "s", v, n, fn); err != nil {
			t.Fatal(err)
		}
		if got := v.Trials[n]; got.Outcome != tc.outcome || got.ErrorKind != tc.kind || calls != 1 {
			t.Errorf("%v: outcome %s kind %q after %d calls; want %s %q, once", tc.err, got.Outcome, got.ErrorKind, calls, tc.outcome, tc.kind)
		}
	}
}
