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

// TestStalledTrialsRunAgainOnlyInTestEnvs: a client deadline runs the trial again under
// a key of its own, at most StalledRetries times; other errors never do, and the CLI's
// zero keeps the deadline as the outcome.
func TestStalledTrialsRunAgainOnlyInTestEnvs(t *testing.T) {
	stallOnce := func(keys *[]string) func(context.Context, *lab.Trial) error {
		return func(_ context.Context, tr *lab.Trial) error {
			*keys = append(*keys, tr.Key)
			if len(*keys) == 1 {
				return lab.Failed("second-acquire", fmt.Errorf("node #0: %w", context.DeadlineExceeded))
			}
			tr.Prove("seen")
			return nil
		}
	}
	var keys []string
	v := &results.Variant{Name: "v", Measure: results.Violations}
	env := &lab.Env{Trials: 1, Seed: 1, StalledRetries: 2}
	if err := env.RunTrial(context.Background(), "s", v, 0, stallOnce(&keys)); err != nil {
		t.Fatal(err)
	}
	if got := v.Trials[0]; got.Outcome != results.Judged || got.Inputs["stalled_retries"] != 1 {
		t.Errorf("stalled once, retried: outcome %s, inputs %v; want judged after 1 retry", got.Outcome, got.Inputs)
	}
	if len(keys) != 2 || keys[0] == keys[1] {
		t.Errorf("attempt keys %q: want two distinct", keys)
	}

	keys = nil
	zero := &lab.Env{Trials: 1, Seed: 1}
	if err := zero.RunTrial(context.Background(), "s", v, 1, stallOnce(&keys)); err != nil {
		t.Fatal(err)
	}
	if got := v.Trials[1]; got.Outcome != results.Errored || got.ErrorKind != "second-acquire" || len(keys) != 1 {
		t.Errorf("StalledRetries 0: outcome %s kind %q after %d attempts; want the error, once", got.Outcome, got.ErrorKind, len(keys))
	}

	calls := 0
	always := func(context.Context, *lab.Trial) error {
		calls++
		return fmt.Errorf("wait: %w", context.DeadlineExceeded)
	}
	if err := env.RunTrial(context.Background(), "s", v, 2, always); err != nil {
		t.Fatal(err)
	}
	if got := v.Trials[2]; got.Outcome != results.Errored || calls != 3 {
		t.Errorf("always stalled: outcome %s after %d calls; want errored after 3", got.Outcome, calls)
	}

	calls = 0
	lateOnce := func(_ context.Context, tr *lab.Trial) error {
		calls++
		if calls == 1 {
			return lab.Late("B missed the window")
		}
		tr.Prove("seen")
		return nil
	}
	if err := env.RunTrial(context.Background(), "s", v, 4, lateOnce); err != nil {
		t.Fatal(err)
	}
	if got := v.Trials[3]; got.Outcome != results.Judged || calls != 2 {
		t.Errorf("late once: outcome %s after %d calls; want judged on the second", got.Outcome, calls)
	}
	calls = 0
	if err := zero.RunTrial(context.Background(), "s", v, 5, lateOnce); err != nil {
		t.Fatal(err)
	}
	if got := v.Trials[4]; got.Outcome != results.FaultNotProduced || calls != 1 {
		t.Errorf("late, StalledRetries 0: outcome %s after %d calls; want fault_not_produced, once", got.Outcome, calls)
	}
	calls = 0
	noFault := func(context.Context, *lab.Trial) error { calls++; return lab.NoFault("no promotion") }
	if err := env.RunTrial(context.Background(), "s", v, 6, noFault); err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Errorf("a fault the system did not produce ran %d times: only the client's lateness runs again", calls)
	}

	calls = 0
	refused := func(context.Context, *lab.Trial) error { calls++; return lab.Failed("second-acquire", net.ErrClosed) }
	if err := env.RunTrial(context.Background(), "s", v, 3, refused); err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Errorf("a connection error ran %d times: only client deadlines run again", calls)
	}
}
