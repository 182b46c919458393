package lab

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/topologies"
)

// A clock fault is proved by reading the skewed node's own clock back with TIME and
// finding what its model says it reads. Both providers answer TIME from the clock
// that expires keys: libfaketime fakes redis-server's wall clock, and an embedded
// node sets miniredis's time (which TIME returns) to its model's reading before every
// command.

const (
	// OffsetTolerance is how far beyond a reading's round trip a node's clock may sit
	// from its model and still show it: an embedded node's clock may lag its model by
	// one ticker period (1 ms). It shrinks to half of any smaller fault, so a node
	// whose clock did not move never passes for one that did.
	OffsetTolerance = 2 * time.Millisecond
	// clockShowBound is how long a node gets to show its model's clock: libfaketime
	// applies a step when the driver has rewritten its file.
	clockShowBound = 2 * time.Second
	// readsPerReading: the narrowest of these round trips is kept (the NTP rule).
	readsPerReading = 3
)

// ClockReading is one TIME answer and the local instants around its round trip.
type ClockReading struct {
	sent, Received time.Time
	node           time.Time
}

func (r ClockReading) mid() time.Time { return r.sent.Add(r.Received.Sub(r.sent) / 2) }

// offset is the node's clock minus true time, taken at the round trip's middle.
func (r ClockReading) offset() time.Duration { return r.node.Sub(r.mid()) }

// offsetSpan holds every offset the reading allows: the node read its clock at some
// instant between sent and received (TIME truncates to microseconds).
func (r ClockReading) offsetSpan() span {
	return span{r.node.Sub(r.Received), r.node.Sub(r.sent) + time.Microsecond}
}

// span is a closed interval of durations.
type span struct{ lo, hi time.Duration }

func (s span) near(x, tol time.Duration) bool { return s.lo-tol <= x && x <= s.hi+tol }

// shows says whether measured is the model's want (one of wants, which the model
// passes through during the readings) and, when want is a fault, not a true clock.
func shows(measured span, want time.Duration, wants ...time.Duration) bool {
	tol := OffsetTolerance
	if want != 0 {
		tol = min(tol, abs(want)/2)
	}
	fits := false
	for _, w := range append(wants, want) {
		fits = fits || measured.near(w, tol)
	}
	return fits && (want == 0 || !measured.near(0, tol))
}

func abs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// ModelClock is what one node's clock should read: the model the scenario gave it,
// with the scenario's events fired when the scenario fired them. It is built from the
// scenario's model, not from the node's own timeline, so a node that never heard of
// an event still fails to show it.
type ModelClock struct {
	Node     topologies.Node
	Model    clocks.Model
	timeline *clocks.Timeline
	start    time.Time // the node's model start
}

// ExpectClock binds m to node, with events fired at the given instants. A skewed
// Model on a node that runs no model clock is a fault that cannot have happened.
func ExpectClock(node topologies.Node, m clocks.Model, events map[string]time.Time) (ModelClock, error) {
	e := ModelClock{Node: node, Model: m, timeline: clocks.NewTimeline(m)}
	if m.IsTrue() {
		return e, nil
	}
	nc := topologies.NodeClock(node)
	if nc == nil {
		return e, NoFault("%s runs no model clock: it was never given %s", node.Name(), m)
	}
	e.start = nc.Start()
	for event, at := range events {
		e.timeline.Fire(event, at.Sub(e.start))
	}
	return e, nil
}

// offsetAt is how far ahead of true time the model puts the node's clock at instant x.
func (e ModelClock) offsetAt(x time.Time) time.Duration {
	if e.Model.IsTrue() {
		return 0
	}
	elapsed := x.Sub(e.start)
	return e.timeline.Reading(elapsed) - elapsed
}

// OffRate says the model runs fast or slow: its offset is proved by how it grows, as
// libfaketime's rate counts from the process's own start, a few ms off the model's.
func (e ModelClock) OffRate() bool { return e.Model.Rate != 0 && e.Model.Rate != 1 }

// showsOffset says whether r shows the model's offset; it returns both.
func (e ModelClock) showsOffset(r ClockReading) (got, want time.Duration, ok bool) {
	want = e.offsetAt(r.mid())
	return r.offset(), want, shows(r.offsetSpan(), want, e.offsetAt(r.sent), e.offsetAt(r.Received))
}

// showsGrowth says whether the offset grew from first to r as the model says.
func (e ModelClock) showsGrowth(first, r ClockReading) (got, want time.Duration, ok bool) {
	a, b := first.offsetSpan(), r.offsetSpan()
	grew := span{b.lo - a.hi, b.hi - a.lo}
	want = e.offsetAt(r.mid()) - e.offsetAt(first.mid())
	return r.offset() - first.offset(), want, shows(grew, want,
		e.offsetAt(r.sent)-e.offsetAt(first.Received), e.offsetAt(r.Received)-e.offsetAt(first.sent))
}

// ClockReader reads one node's clock over one connection.
type ClockReader struct {
	node   topologies.Node
	client *redis.Client
}

// NewClockReader reads node's clock (TIME) over a connection of its own.
func NewClockReader(node topologies.Node) *ClockReader {
	return &ClockReader{node: node, client: PlainClient(node.Addr())}
}

// Close closes the reader's connection.
func (c *ClockReader) Close() { c.client.Close() }

// Read keeps the narrowest of a few round trips. A failed read is an error of the
// trial, never a clock that did not move.
func (c *ClockReader) Read(ctx context.Context) (ClockReading, error) {
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var best ClockReading
	for i := 0; i < readsPerReading; i++ {
		sent := time.Now()
		at, err := c.client.Time(rctx).Result()
		received := time.Now()
		if err != nil {
			return best, Failed("clock-read", fmt.Errorf("TIME on %s: %w", c.node.Name(), err))
		}
		if i == 0 || received.Sub(sent) < best.Received.Sub(best.sent) {
			best = ClockReading{sent: sent, Received: received, node: at}
		}
	}
	return best, nil
}

// await reads until ok accepts a reading or clockShowBound passes; it returns the last
// reading and whether ok accepted it.
func (c *ClockReader) await(ctx context.Context, ok func(ClockReading) bool) (ClockReading, bool, error) {
	deadline := time.Now().Add(clockShowBound)
	for {
		r, err := c.Read(ctx)
		if err != nil {
			return r, false, err
		}
		if ok(r) {
			return r, true, nil
		}
		if time.Now().After(deadline) {
			return r, false, nil
		}
		if err := Sleep(ctx, time.Millisecond); err != nil {
			return r, false, err
		}
	}
}

// AwaitOffset reads node until it shows e's offset; a node that does not within the
// bound has not got its fault (or, for a true model, is not the control it should be).
func AwaitOffset(ctx context.Context, e ModelClock) (ClockReading, string, error) {
	c := NewClockReader(e.Node)
	defer c.Close()
	r, ok, err := c.await(ctx, func(r ClockReading) bool { _, _, ok := e.showsOffset(r); return ok })
	if err != nil {
		return r, "", err
	}
	got, want, _ := e.showsOffset(r)
	if !ok {
		return r, "",
			NoFault("%s's clock read %s for %v; its model (%s) says %s", e.Node.Name(), signed(got), clockShowBound, e.Model,
				signed(want))
	}
	model := signed(want)
	if e.Model.IsTrue() {
		model = "true"
	}
	return r, fmt.Sprintf("%s's clock read %s (model %s)", e.Node.Name(), signed(got), model), nil
}

// AwaitGrowth reads node until its offset has grown from first as e's rate says.
func AwaitGrowth(ctx context.Context, e ModelClock, first ClockReading) (string, error) {
	c := NewClockReader(e.Node)
	defer c.Close()
	r, ok, err := c.await(ctx, func(r ClockReading) bool { _, _, ok := e.showsGrowth(first, r); return ok })
	if err != nil {
		return "", err
	}
	got, want, _ := e.showsGrowth(first, r)
	between := r.mid().Sub(first.mid())
	if !ok {
		return "",
			NoFault("%s's clock gained %s over %v; its model (%s) says %s", e.Node.Name(), signed(got),
				between.Round(time.Millisecond), e.Model, signed(want))
	}
	rate := float64(r.node.Sub(first.node)) / float64(between)
	return fmt.Sprintf("%s's clock ran at rate %.4f over %v, gaining %s (model rate %g: %s)",
		e.Node.Name(), rate, between.Round(time.Millisecond), signed(got), e.Model.Rate, signed(want)), nil
}

// signed writes d with its sign, to 10 µs below a second and to 1 ms above.
func signed(d time.Duration) string {
	if abs(d) >= time.Second {
		d = d.Round(time.Millisecond)
	} else {
		d = d.Round(10 * time.Microsecond)
	}
	if d >= 0 {
		return "+" + d.String()
	}
	return d.String()
}
