package safety

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lockbench/lockbench/topologies"
	"github.com/redis/go-redis/v9"
)

// vizDir is where a run's porcupine pages go, made on first use; "" when the run
// writes none.
func (e *Env) vizDir() string {
	if e.OutDir == "" {
		return ""
	}
	dir := filepath.Join(e.OutDir, "viz")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		e.logf("viz dir: %v", err)
		return ""
	}
	return dir
}

// judgeTrial runs the checkers on a trial and adds it to v.
func (e *Env) judgeTrial(scenario string, v *Variant, trial int, inputs map[string]float64, h History) (Verdict, error) {
	verdict, err := Judge(h, e.vizDir(), fmt.Sprintf("%s-%s-trial%03d", scenario, v.Name, trial))
	if err != nil {
		return verdict, err
	}
	v.record(trial, inputs, verdict)
	e.logf("%s/%s trial %d: %d violations, %d lost, %d orphaned, %d reissued, %d stale accepted, %d stale rejected",
		scenario, v.Name, trial, verdict.Mutex.Violations, verdict.Lost.Lost, verdict.Orphan.Orphans, verdict.Tokens.Reissued, verdict.Fence.StaleAccepted, verdict.Fence.StaleRejected)
	return verdict, nil
}

// start starts spec through env and returns it with its Close.
func (e *Env) start(ctx context.Context, spec topologies.Spec) (topologies.Topology, error) {
	if e.Start == nil {
		return nil, fmt.Errorf("env.Start is nil: nothing can start a %s topology", spec.Kind)
	}
	startCtx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	return e.Start(startCtx, spec)
}

// observeKey reads key on addr and records what it found, as the observer.
func observeKey(ctx context.Context, rec *Recorder, addr, key string) error {
	octx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	s, err := topologies.ReadKey(octx, addr, key)
	if err != nil {
		return fmt.Errorf("observe %s on %s: %w", key, addr, err)
	}
	ttl := s.TTL
	if ttl < 0 {
		ttl = NoExpiry
	}
	rec.Record(Event{Client: "observer", Kind: Observed, Key: key, Node: addr, Present: s.Present, Holder: s.Value, TTL: ttl})
	return nil
}

// plainClient is a no-retry client for one address, for fencing counters.
func plainClient(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, Protocol: 2, DisableIdentity: true})
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// Measure values: what an Expectation is about.
const (
	MeasureViolations    = "violations"
	MeasureOrphans       = "orphaned_locks"
	MeasureLostLocks     = "lost_locks"
	MeasureStaleAccepted = "stale_writes_accepted"
	MeasureReissued      = "reissued_tokens"
)

// Value returns the count a measure names.
func (v *Variant) Value(measure string) int {
	switch measure {
	case MeasureViolations:
		return v.Violations
	case MeasureOrphans:
		return v.Orphans
	case MeasureLostLocks:
		return v.LostLocks
	case MeasureStaleAccepted:
		return v.StaleAccepted
	case MeasureReissued:
		return v.ReissuedTokens
	}
	panic("safety: unknown measure " + measure)
}
