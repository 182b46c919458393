package faketime

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/lockbench/lockbench/clocks"
)

// Node drives one process's libfaketime from a clock model. libfaketime computes
// fake = P + offset + rate x (now - P), P being the process's start; the model wants
// S + rate x (now - S) + Step, S being the model's start. So the file carries
// offset = Step + (rate - 1) x (P - S), rewritten whenever Step changes.
type Node struct {
	clock *clocks.NodeClock
	file  string
	base  []string // LD_PRELOAD and friends, the same for every start

	mu        sync.Mutex
	procStart time.Duration // model-relative real time the current process started
	written   string

	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// Start begins m's timeline now and keeps dir/faketime.spec in step with it until Close.
func Start(dir string, m clocks.Model, clock clocks.Clock) (*Node, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	lib, err := Library()
	if err != nil {
		return nil, err
	}
	preload, err := Preload()
	if err != nil {
		return nil, err
	}
	n := &Node{
		clock: clocks.NewNodeClock(m, clock),
		file:  filepath.Join(dir, "faketime.spec"),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	n.base = []string{
		// The allocator preload must come first: see preload/glibcmalloc.c.
		"LD_PRELOAD=" + preload + ":" + lib,
		"FAKETIME_TIMESTAMP_FILE=" + n.file,
		// Re-read the file on every call: with a cache, steps land up to 2 s late
		// (measured); the cost is throughput (SET 48-51k req/s instead of 60-66k here).
		"FAKETIME_NO_CACHE=1",
		// Only the wall clock moves, as an NTP step or a bad crystal would show in
		// expiry; Redis's event loop and timers keep real monotonic time.
		"DONT_FAKE_MONOTONIC=1",
	}
	if err := n.write(); err != nil {
		return nil, err
	}
	go n.drive()
	return n, nil
}

// Clock is the node's model clock: fire events on it ("grant") to trigger its jumps.
func (n *Node) Clock() *clocks.NodeClock { return n.clock }

// Env is the environment for a process start; call it right before each (re)start,
// as it rebases the rate on the new process.
func (n *Node) Env() []string {
	n.mu.Lock()
	n.procStart = n.clock.Elapsed()
	n.mu.Unlock()
	_ = n.write() // a failed write leaves the previous spec, which a later step retries
	return append([]string(nil), n.base...)
}

// Spec is what the timestamp file should say at real time at (model-relative).
func (n *Node) spec(at time.Duration) string {
	m := n.clock.Model()
	rate := m.Rate
	if rate == 0 {
		rate = 1
	}
	n.mu.Lock()
	p := n.procStart
	n.mu.Unlock()
	offset := n.clock.Step(at) + time.Duration(float64(p)*(rate-1))
	return fmt.Sprintf("%+.9f x%.9f\n", offset.Seconds(), rate)
}

// write replaces the file's content atomically (libfaketime may read it at any time).
func (n *Node) write() error {
	s := n.spec(n.clock.Elapsed())
	n.mu.Lock()
	same := s == n.written
	n.mu.Unlock()
	if same {
		return nil
	}
	tmp := n.file + ".tmp"
	if err := os.WriteFile(tmp, []byte(s), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, n.file); err != nil {
		return err
	}
	n.mu.Lock()
	n.written = s
	n.mu.Unlock()
	return nil
}

// drive rewrites the file at every breakpoint of the model and whenever an event fires.
func (n *Node) drive() {
	defer close(n.done)
	for {
		changed := n.clock.Changed()
		now := n.clock.Elapsed()
		wait := time.Hour
		if next := n.clock.Breakpoints(now, now+time.Hour); len(next) > 0 {
			wait = next[0] - now
		}
		timer := time.NewTimer(wait)
		select {
		case <-n.stop:
			timer.Stop()
			return
		case <-changed:
		case <-timer.C:
		}
		timer.Stop()
		_ = n.write()
	}
}

// Close stops the driver (nil-safe); the file stays for the topology to remove with its dir.
func (n *Node) Close() {
	if n == nil {
		return
	}
	n.once.Do(func() { close(n.stop) })
	<-n.done
}

// Calibrate corrects the rate's base from one reading of the process's clock. The
// process start P is only estimated at Env (libfaketime takes it when it loads, a few
// ms to tens of ms later on a busy machine), and an error e in P shows as (rate - 1) x e
// in every reading: 50 ms at rate 3 for a 25 ms late start. read returns the process's
// wall clock (Redis TIME); with rate 1 there is nothing to correct.
func (n *Node) Calibrate(read func() (time.Time, error)) error {
	rate := n.clock.Model().Rate
	if rate == 0 || rate == 1 {
		return nil
	}
	before := n.clock.Now()
	got, err := read()
	if err != nil {
		return fmt.Errorf("calibrate the faked clock: %w", err)
	}
	after := n.clock.Now()
	want := before.Add(after.Sub(before) / 2)
	n.mu.Lock()
	n.procStart -= time.Duration(float64(got.Sub(want)) / (rate - 1))
	n.mu.Unlock()
	return n.write()
}
