package netem

import (
	"math/rand/v2"
	"sort"
	"sync"
	"time"

	"github.com/Shopify/toxiproxy/v2/toxics"
)

// preciseLatencyType is our toxiproxy toxic. toxiproxy's own latency toxic sleeps on
// a Go timer per chunk, and Go timers wake late here (0.2-0.5 ms: the runtime waits
// on epoll in whole milliseconds), so 5 ms each way came out 8-9% slow. This one
// sleeps that much less, by an amount measured once per network, at its delay.
// (Exactness was tried and dropped: spinning, short nanosleeps on a locked thread
// and a learnt lead all kept a lone P from polling the network or ran away under
// load. What the proxies really add is measured and recorded anyway.)
const preciseLatencyType = "lockbench_latency"

type preciseLatency struct {
	LatencyUs    int64  `json:"latency_us"`
	JitterUs     int64  `json:"jitter_us"`
	CompensateUs int64  `json:"compensate_us"` // the timer's usual lateness, slept less
	Seed         uint64 `json:"seed"`

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
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	compensate := time.Duration(t.CompensateUs) * time.Microsecond
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
			timer.Reset(time.Until(due) - compensate)
			select {
			case <-timer.C:
			case <-stub.Interrupt:
				timer.Stop()
				stub.Output <- c // interrupted: pass the data on, never drop it
				return
			}
			c.Timestamp = due
			stub.Output <- c
		}
	}
}

// timerLateness is the median lateness of a Go timer of duration wait on this
// machine now: it depends on the duration (epoll waits whole milliseconds, then the
// remainder), so it is measured at the delay the proxies will use.
func timerLateness(wait time.Duration) time.Duration {
	const samples = 21
	late := make([]time.Duration, samples)
	for i := range late {
		start := time.Now()
		time.Sleep(wait)
		late[i] = time.Since(start) - wait
	}
	sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
	return min(late[samples/2], wait)
}
