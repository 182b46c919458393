package netem

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/Shopify/toxiproxy/v2/toxics"
)

// preciseLatencyType is our toxiproxy toxic. toxiproxy's own latency toxic sleeps on
// a Go timer per chunk, and Go timers wake late here (0.1-1 ms: when the process is
// idle the runtime waits on epoll in whole milliseconds), so 5 ms each way came out
// 8-9% slow. This one fixes each chunk's release time at its arrival, wakes for it
// through a timerfd (see deadlineWaker) and sets that alarm early by the wake-up
// lateness it keeps measuring (see wakeLead). What the proxies really add is still
// measured and recorded (MeasureAddedRTT).
const preciseLatencyType = "lockbench_latency"

type preciseLatency struct {
	LatencyUs int64  `json:"latency_us"`
	JitterUs  int64  `json:"jitter_us"`
	LeadUs    int64  `json:"lead_us"` // first estimate of the wake-up lateness, measured at Start
	Seed      uint64 `json:"seed"`

	mu       sync.Mutex // one toxic serves every connection of its proxy at once
	rng      *rand.Rand
	once     sync.Once
	lead     *wakeLead
	pathLead atomic.Int64 // ns delivered early for the path's own cost, set by calibrate
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

// wakeLead is shared by every connection of this toxic: they wake on the same machine.
func (t *preciseLatency) wakeLead() *wakeLead {
	t.once.Do(func() {
		latency := time.Duration(t.LatencyUs-t.JitterUs) * time.Microsecond
		t.lead = newWakeLead(time.Duration(t.LeadUs)*time.Microsecond, latency/4)
	})
	return t.lead
}

// setPathLead has chunks released lead earlier (later when negative), at most a
// quarter of the latency either way.
func (t *preciseLatency) setPathLead(lead time.Duration) {
	limit := time.Duration(t.LatencyUs-t.JitterUs) * time.Microsecond / 4
	t.pathLead.Store(int64(min(max(lead, -limit), limit)))
}

// Pipe holds each chunk until its arrival time plus the delay, then passes it on. The
// deadline is fixed at arrival, so neither time spent queued behind earlier chunks nor
// a late wake-up adds to the next chunk's delay.
func (t *preciseLatency) Pipe(stub *toxics.ToxicStub) {
	waker, release := optionalWaker()
	defer release()
	timer := newIdleTimer()
	lead := t.wakeLead()
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
			alarm := due.Add(-lead.get() - time.Duration(t.pathLead.Load()))
			slept, reached := waitUntil(alarm, timer, waker, stub.Interrupt)
			if !reached {
				stub.Output <- c // interrupted: pass the data on, never drop it
				return
			}
			if slept {
				lead.observe(time.Since(alarm))
			}
			c.Timestamp = due
			stub.Output <- c
		}
	}
}
