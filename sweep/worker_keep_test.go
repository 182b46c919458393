package sweep

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/topologies"
)

// closeRecorder is a topology that notes when it was closed.
type closeRecorder struct {
	topologies.Topology
	closedAt time.Time
}

func (c *closeRecorder) Close() error { c.closedAt = time.Now(); return nil }

// A worker's topologies close (deleting the run's keys on servers not ours) only once
// every worker has ended its last cell; an interrupted worker closes them at once, and
// a whole run closes each as it goes.
func TestAWorkerClosesItsTopologiesOnlyAfterTheLastAgreedEnd(t *testing.T) {
	whole := &Runner{}
	t1 := &closeRecorder{}
	whole.closeTopology(t1)
	if t1.closedAt.IsZero() {
		t.Error("a whole run kept a topology it was done with")
	}

	w := &Runner{Worker: &Worker{Index: 1, Of: 3}}
	first, second := &closeRecorder{}, &closeRecorder{}
	w.closeTopology(first)
	w.closeTopology(second)
	if !first.closedAt.IsZero() || !second.closedAt.IsZero() {
		t.Fatal("a worker closed a topology mid-run: the other workers may still use its keys")
	}
	w.lastEnd = time.Now().Add(100 * time.Millisecond)
	w.closeKept(context.Background())
	for i, c := range []*closeRecorder{first, second} {
		if c.closedAt.IsZero() {
			t.Errorf("topology %d never closed", i)
		} else if c.closedAt.Before(w.lastEnd.Add(workersDoneGrace)) {
			t.Errorf("topology %d closed at %v, before the last end + grace %v", i, c.closedAt, w.lastEnd.Add(workersDoneGrace))
		}
	}

	interrupted := &Runner{Worker: &Worker{Index: 0, Of: 3}, lastEnd: time.Now().Add(time.Hour)}
	third := &closeRecorder{}
	interrupted.closeTopology(third)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	interrupted.closeKept(ctx)
	if third.closedAt.IsZero() {
		t.Error("an interrupted worker left its topology open (and its keys on the servers)")
	}
}
