package capacity

import (
	"context"
	"time"
)

// fakeClock is time the synthetic prober advances by each probe's plan: the search
// runs without waiting, and the test can see how long the probes would have taken.
type fakeClock struct{ now time.Duration }

func (c *fakeClock) advance(d time.Duration) { c.now += d }

// fakeLocker is a latency model: the percentile stays at base below knee and rises
// past it as a queue builds (base / (1 - rate/capacity), an M/M/1 shape), so the
// highest rate within a budget is known in closed form.
type fakeLocker struct {
	base     time.Duration
	capacity float64
	// lucky, when set, makes the first probe at every rate report base: the repeat
	// must catch it.
	lucky bool
	// unluckyAt, when set, makes the first probe at that rate report an hour: a spike
	// the second and third probes must outvote.
	unluckyAt float64
	// generatorLimit, when set, is the most the generator delivers, with its one core
	// saturated above it.
	generatorLimit float64
}

// latencyAt is the model's percentile at rate.
func (f fakeLocker) latencyAt(rate float64) time.Duration {
	if rate >= f.capacity {
		return time.Hour
	}
	return time.Duration(float64(f.base) / (1 - rate/f.capacity))
}

// kneeFor is the highest rate whose latency stays within limit.
func (f fakeLocker) kneeFor(limit time.Duration) float64 {
	return f.capacity * (1 - float64(f.base)/float64(limit))
}

// syntheticProber probes the fake locker on the fake clock.
type syntheticProber struct {
	locker fakeLocker
	clock  *fakeClock
	probes []Plan
}

func (s *syntheticProber) Probe(_ context.Context, rate float64, repeat int, plan Plan) (Probe, error) {
	s.clock.advance(plan.Warmup + plan.Duration)
	s.probes = append(s.probes, plan)
	achieved := rate
	clientCPU := 0.3 * rate / 10000
	if s.locker.generatorLimit > 0 && rate > s.locker.generatorLimit {
		achieved, clientCPU = s.locker.generatorLimit, 1
	}
	lat := s.locker.latencyAt(achieved)
	if s.locker.lucky && repeat == 1 {
		lat = s.locker.base
	}
	if s.locker.unluckyAt == rate && repeat == 1 {
		lat = time.Hour
	}
	samples := int64(achieved * plan.Duration.Seconds())
	return Probe{
		Offered: rate, Achieved: achieved, Samples: samples, Sent: int64(rate * plan.Duration.Seconds()),
		Latency: lat, Elapsed: plan.Duration, ClientCPU: clientCPU, ClientCores: 1,
		ServerCPU: map[string]float64{"master-0": achieved / s.locker.capacity},
	}, nil
}
