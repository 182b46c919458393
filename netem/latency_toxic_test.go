package netem

import (
	"bytes"
	"testing"
	"time"

	"github.com/Shopify/toxiproxy/v2/stream"
	"github.com/Shopify/toxiproxy/v2/toxics"
)

// runToxic runs the toxic on a fresh stub as toxiproxy does and returns its ends and
// a channel closed when Pipe returns.
func runToxic(t *testing.T, toxic *preciseLatency) (chan *stream.StreamChunk, chan *stream.StreamChunk, *toxics.ToxicStub, chan struct{}) {
	in, out := make(chan *stream.StreamChunk, 64), make(chan *stream.StreamChunk, 64)
	stub := toxics.NewToxicStub(in, out)
	done := make(chan struct{})
	go func() { defer close(done); stub.Run(&toxics.ToxicWrapper{Toxic: toxic, Toxicity: 1}) }()
	return in, out, stub, done
}

func receive(t *testing.T, out <-chan *stream.StreamChunk) (*stream.StreamChunk, time.Time) {
	t.Helper()
	select {
	case c := <-out:
		return c, time.Now()
	case <-time.After(10 * time.Second):
		t.Fatal("no chunk came out of the toxic within 10 s")
		return nil, time.Time{}
	}
}

// Every chunk leaves in order, stamped with exactly its arrival plus the delay (the
// achieved schedule that is recorded), and never before the earliest the leads allow.
func TestPipeReleasesEachChunkAtArrivalPlusDelay(t *testing.T) {
	const latency = 2 * time.Millisecond
	in, out, _, _ := runToxic(t, &preciseLatency{LatencyUs: latency.Microseconds()})
	for i := range 20 {
		arrived := time.Now()
		in <- &stream.StreamChunk{Data: []byte{byte(i)}, Timestamp: arrived}
		c, left := receive(t, out)
		if !bytes.Equal(c.Data, []byte{byte(i)}) {
			t.Fatalf("chunk %d came out as %v", i, c.Data)
		}
		if want := arrived.Add(latency); !c.Timestamp.Equal(want) {
			t.Errorf("chunk %d stamped %v after arrival, want %v", i, c.Timestamp.Sub(arrived), latency)
		}
		if held := left.Sub(arrived); held < latency-latency/4 {
			t.Errorf("chunk %d held %v, less than the delay minus the largest lead (%v)", i, held, latency-latency/4)
		}
	}
	close(in)
	if _, open := <-out; open {
		t.Error("output still open after the input closed")
	}
}

// Chunks that arrive together leave together: each one's deadline is fixed at its
// arrival, so waiting for one does not delay the next (sleeping the delay after each
// read would spread n chunks over n delays).
func TestChunksQueuedTogetherDoNotAccumulateDelay(t *testing.T) {
	const latency, n = 20 * time.Millisecond, 10
	in, out, _, _ := runToxic(t, &preciseLatency{LatencyUs: latency.Microseconds()})
	arrived := time.Now()
	for i := range n {
		in <- &stream.StreamChunk{Data: []byte{byte(i)}, Timestamp: arrived}
	}
	_, first := receive(t, out)
	var last time.Time
	for range n - 1 {
		_, last = receive(t, out)
	}
	if spread, accumulated := last.Sub(first), (n-1)*latency; spread > accumulated/2 {
		t.Errorf("%d chunks that arrived together left over %v; accumulating the delay would take %v", n, spread, accumulated)
	}
	close(in)
}

// An interrupt during a hold passes the held chunk on at once and ends Pipe, so
// toxiproxy can swap toxics without losing data.
func TestInterruptPassesTheHeldChunkOn(t *testing.T) {
	in, out, stub, done := runToxic(t, &preciseLatency{LatencyUs: time.Hour.Microseconds()})
	in <- &stream.StreamChunk{Data: []byte("held"), Timestamp: time.Now()}
	time.Sleep(10 * time.Millisecond) // let Pipe take it and start waiting
	if !stub.InterruptToxic() {
		t.Fatal("stub reported closed")
	}
	c, _ := receive(t, out)
	if string(c.Data) != "held" {
		t.Errorf("got %q after the interrupt", c.Data)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Pipe still running after the interrupt")
	}
}
