package netem

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/Shopify/toxiproxy/v2/toxics"
)

// preciseLatencyType is our toxiproxy toxic: toxiproxy's own latency toxic sleeps on
// a Go timer, which overshot by 0.2-0.5 ms per hop here, so 5 ms each way came out
// 8-9% slow; this one sleeps most of the way and yields in a loop for the rest.
const preciseLatencyType = "lockbench_latency"

// spinWindow is how much of each delay is spent yielding in a loop instead of on a
// timer: 0.4 ms was still often late under load; 1.5 ms keeps most chunks within a
// few microseconds, at the price of CPU while chunks are in flight.
const spinWindow = 1500 * time.Microsecond

type preciseLatency struct {
	LatencyUs int64  `json:"latency_us"`
	JitterUs  int64  `json:"jitter_us"`
	Seed      uint64 `json:"seed"`

	mu  sync.Mutex // one toxic serves every connection of its proxy at once
	rng *rand.Rand
}

func init() { toxics.Register(preciseLatencyType, new(preciseLatency)) }

func (t *preciseLatency) GetBufferSize() int { return 1024 }

func (t *preciseLatency) delay() time.Duration {
	d := time.Duration(t.LatencyUs) * time.Microsecond
	if t.JitterUs <= 0 {
		return d
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rng == nil {
		t.rng = rand.New(rand.NewPCG(t.Seed, t.Seed+1))
	}
	return d + time.Duration(t.rng.Int64N(2*t.JitterUs+1)-t.JitterUs)*time.Microsecond
}

// Pipe holds each chunk until its arrival time plus the delay, then passes it on.
func (t *preciseLatency) Pipe(stub *toxics.ToxicStub) {
	for {
		select {
		case <-stub.Interrupt:
			return
		case c := <-stub.Input:
			if c == nil {
				stub.Close()
				return
			}
			due := c.Timestamp.Add(t.delay())
			if !waitUntil(due, stub.Interrupt) {
				stub.Output <- c // interrupted: pass the data on, never drop it
				return
			}
			c.Timestamp = due
			stub.Output <- c
		}
	}
}

// waitUntil sleeps on a timer until just before due, then yields until due; false if
// interrupted first.
func waitUntil(due time.Time, interrupt <-chan struct{}) bool {
	if d := time.Until(due) - spinWindow; d > 0 {
		timer := time.NewTimer(d)
		select {
		case <-timer.C:
		case <-interrupt:
			timer.Stop()
			return false
		}
	}
	for time.Now().Before(due) {
		runtime.Gosched()
	}
	return true
}
