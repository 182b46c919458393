package bench_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/locks"
)

// memLocker is an in-memory lock table: the engine's behaviour, without a server.
type memLocker struct {
	mu      sync.Mutex
	holders map[string]string
	failNth int // every failNth Acquire fails with a network-like error (0: never)
	calls   int
}

func (m *memLocker) Strategy() string { return "mem" }
func (m *memLocker) Close() error     { return nil }
func (m *memLocker) Acquire(_ context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	if m.failNth > 0 && m.calls%m.failNth == 0 {
		return locks.Lease{}, errors.New("injected failure")
	}
	if _, held := m.holders[key]; held {
		return locks.Lease{}, locks.ErrNotAcquired
	}
	tok := locks.NewToken()
	m.holders[key] = tok
	return locks.Lease{Key: key, Token: tok}, nil
}
func (m *memLocker) Release(_ context.Context, l locks.Lease) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.holders[l.Key] != l.Token {
		return locks.ErrNotHeld
	}
	delete(m.holders, l.Key)
	return nil
}
func (m *memLocker) Extend(_ context.Context, l locks.Lease, _ time.Duration) (locks.Lease, error) {
	return l, nil
}

func TestRunClosedCountsEveryCycleAndAttempt(t *testing.T) {
	m := &memLocker{holders: map[string]string{}, failNth: 7}
	load := bench.Load{Clients: 8, Keys: 1, TTL: time.Second, Hold: 10 * time.Microsecond}
	res, err := bench.RunClosed(context.Background(), m, load, bench.Countdown(500))
	if err != nil {
		t.Fatal(err)
	}
	if res.Granted != 500 {
		t.Errorf("granted = %d, want exactly the budget 500", res.Granted)
	}
	if res.Attempts != res.Granted+res.Refused+res.ErrorTotal() {
		t.Errorf("attempts %d != granted %d + refused %d + errors %d", res.Attempts, res.Granted, res.Refused, res.ErrorTotal())
	}
	if int(res.Attempts) != m.calls {
		t.Errorf("recorded %d attempts, locker saw %d", res.Attempts, m.calls)
	}
	if res.Refused == 0 {
		t.Error("8 clients on one key were never refused")
	}
	if res.Errors["other"] == 0 {
		t.Errorf("injected failures not counted: %v", res.Errors)
	}
	if got := res.Attempt.TotalCount(); got != res.Attempts {
		t.Errorf("attempt histogram holds %d values, want %d", got, res.Attempts)
	}
	if got := res.Cycle.TotalCount(); got != 500 {
		t.Errorf("cycle histogram holds %d values, want 500", got)
	}
	if len(m.holders) != 0 {
		t.Errorf("locks left held after the run: %v", m.holders)
	}
}

func TestLoadValidationNamesTheField(t *testing.T) {
	for field, load := range map[string]bench.Load{
		"clients": {Clients: 0, Keys: 1, TTL: time.Second},
		"keys":    {Clients: 2, Keys: 3, TTL: time.Second},
		"ttl":     {Clients: 1, Keys: 1},
		"hold":    {Clients: 1, Keys: 1, TTL: time.Second, Hold: -1},
	} {
		_, err := bench.RunClosed(context.Background(), &memLocker{}, load, bench.Countdown(1))
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: error %v does not name the field", field, err)
		}
	}
}

func TestRunOpenTimesFromTheIntendedStart(t *testing.T) {
	m := &memLocker{holders: map[string]string{}}
	// Each cycle holds 2 ms but requests arrive every 1 ms to one client: the queue
	// grows, and acquire latency (from the intended start) must grow with it while
	// the attempt latency (service time) stays small.
	load := bench.Load{Clients: 1, Keys: 1, TTL: time.Second, Hold: 2 * time.Millisecond}
	open := bench.Open{Rate: 1000, Arrival: "constant", Seed: 1, For: 300 * time.Millisecond}
	res, err := bench.RunOpen(context.Background(), m, load, open, bench.RealClock{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Granted == 0 || res.Sent <= res.Granted {
		t.Fatalf("sent %d, granted %d: the overload did not happen", res.Sent, res.Granted)
	}
	if res.Dropped == 0 {
		t.Errorf("requests left queued at the end were not counted as dropped")
	}
	acquireP99 := time.Duration(res.AcquireWait.ValueAtQuantile(99))
	attemptP99 := time.Duration(res.Attempt.ValueAtQuantile(99))
	if acquireP99 <= 10*attemptP99 {
		t.Errorf("acquire p99 %v vs attempt p99 %v: queueing does not show in the latency", acquireP99, attemptP99)
	}
}

// runsFor grants cycles for d from its first call, once the loop is set up: a deadline in
// ctx, counted from before the set-up, once left a loaded machine's run nothing granted.
func runsFor(d time.Duration) func() bool {
	var once sync.Once
	var until time.Time
	return func() bool {
		once.Do(func() { until = time.Now().Add(d) })
		return time.Now().Before(until)
	}
}

func TestSplitRunAddsUpToTheWholeRun(t *testing.T) {
	m := &memLocker{holders: map[string]string{}}
	load := bench.Load{Clients: 4, Keys: 4, TTL: time.Second, Hold: 100 * time.Microsecond,
		Intervals: bench.Intervals{Count: 4, Every: 25 * time.Millisecond}}
	res, err := bench.RunClosed(context.Background(), m, load, runsFor(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Intervals) != 4 {
		t.Fatalf("%d intervals, want 4", len(res.Intervals))
	}
	var granted, attempts, cycles int64
	var elapsed time.Duration
	for _, iv := range res.Intervals {
		granted += iv.Granted
		attempts += iv.Attempts
		cycles += iv.Cycle.TotalCount()
		elapsed += iv.Elapsed
	}
	if granted != res.Granted || attempts != res.Attempts || cycles != res.Cycle.TotalCount() || elapsed != res.Elapsed {
		t.Errorf("intervals hold %d granted, %d attempts, %d cycles over %v; the run %d, %d, %d over %v",
			granted, attempts, cycles, elapsed, res.Granted, res.Attempts, res.Cycle.TotalCount(), res.Elapsed)
	}
	if res.Granted == 0 {
		t.Error("nothing was granted")
	}
}

// countingUpdater applies every update after a short pause.
type countingUpdater struct{}

func (countingUpdater) Update(context.Context, int, int) (bench.UpdateOutcome, error) {
	time.Sleep(50 * time.Microsecond)
	return bench.UpdateOutcome{}, nil
}

func TestSplitUpdateRunAddsUpToTheWholeRun(t *testing.T) {
	load := bench.UpdateLoad{Clients: 2, Rows: 2, Intervals: bench.Intervals{Count: 4, Every: 20 * time.Millisecond}}
	res, err := bench.RunUpdates(context.Background(), countingUpdater{}, load, runsFor(80*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Intervals) != 4 {
		t.Fatalf("%d intervals, want 4", len(res.Intervals))
	}
	var applied, recorded int64
	var elapsed time.Duration
	for _, iv := range res.Intervals {
		applied += iv.Applied
		recorded += iv.Update.TotalCount()
		elapsed += iv.Elapsed
	}
	if applied != res.Applied || recorded != res.Update.TotalCount() || elapsed != res.Elapsed || res.Applied == 0 {
		t.Errorf("intervals hold %d applied, %d timed over %v; the run %d, %d over %v",
			applied, recorded, elapsed, res.Applied, res.Update.TotalCount(), res.Elapsed)
	}
}

// blockingLocker grants at once (as memLocker) or, when block is set, makes every
// attempt wait for ctx's end; it reports each attempt entering, and records its warm-up.
type blockingLocker struct {
	memLocker
	block   bool
	entered chan struct{}
	warmed  []locks.WarmUp
	warmAt  time.Time
}

func (b *blockingLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	if b.block {
		b.entered <- struct{}{}
		<-ctx.Done()
		return locks.Lease{}, ctx.Err()
	}
	lease, err := b.memLocker.Acquire(ctx, key, ttl)
	b.entered <- struct{}{}
	return lease, err
}

func (b *blockingLocker) Warm(_ context.Context, w locks.WarmUp) error {
	b.warmed = append(b.warmed, w)
	b.warmAt = time.Now()
	return nil
}

// runUntilEntered runs load on l and ends it once every client has entered Acquire.
func runUntilEntered(t *testing.T, l *blockingLocker, load bench.Load) bench.Result {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for range load.Clients {
			<-l.entered
		}
		cancel()
	}()
	res, err := bench.RunClosed(ctx, l, load, func() bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestCutOffAttemptsStayOutOfTheHistograms(t *testing.T) {
	const clients = 8
	l := &blockingLocker{memLocker: memLocker{holders: map[string]string{}}, block: true, entered: make(chan struct{}, clients)}
	res := runUntilEntered(t, l, bench.Load{Clients: clients, Keys: clients, TTL: time.Second})
	if res.CutOffAttempts != clients || res.Attempts != 0 || res.Attempt.TotalCount() != 0 || res.ErrorTotal() != 0 {
		t.Errorf("cut off %d, attempts %d, attempt samples %d, errors %v; want %d cut off and nothing else",
			res.CutOffAttempts, res.Attempts, res.Attempt.TotalCount(), res.Errors, clients)
	}
}

func TestCutOffHoldsAreReleasedButNoCycle(t *testing.T) {
	const clients = 8
	l := &blockingLocker{memLocker: memLocker{holders: map[string]string{}}, entered: make(chan struct{}, clients)}
	res := runUntilEntered(t, l, bench.Load{Clients: clients, Keys: clients, TTL: time.Second, Hold: time.Hour})
	if res.CutOffHolds != clients || res.Granted != 0 || res.Cycle.TotalCount() != 0 {
		t.Errorf("holds cut off %d, granted %d, cycle samples %d; want %d holds cut off and no cycle",
			res.CutOffHolds, res.Granted, res.Cycle.TotalCount(), clients)
	}
	if res.Release.TotalCount() != clients || len(l.holders) != 0 {
		t.Errorf("%d releases timed, locks left %v: every cut hold must be released", res.Release.TotalCount(), l.holders)
	}
}

func TestTheEngineWarmsTheLockerBeforeItsClock(t *testing.T) {
	const clients = 4
	for _, noWarm := range []bool{false, true} {
		l := &blockingLocker{memLocker: memLocker{holders: map[string]string{}}, entered: make(chan struct{}, 1000)}
		load := bench.Load{Clients: clients, Keys: clients, TTL: time.Second, NoWarm: noWarm}
		res, err := bench.RunClosed(context.Background(), l, load, bench.Countdown(100))
		if err != nil {
			t.Fatal(err)
		}
		want := []locks.WarmUp{{Clients: clients, TTL: time.Second}}
		switch {
		case noWarm && len(l.warmed) != 0:
			t.Errorf("NoWarm: warmed anyway %v", l.warmed)
		case !noWarm && (len(l.warmed) != 1 || l.warmed[0] != want[0]):
			t.Errorf("warmed %v, want %v", l.warmed, want)
		case !noWarm && !l.warmAt.Before(res.Started):
			t.Errorf("warmed at %v, not before the clock started at %v", l.warmAt, res.Started)
		}
	}
}
