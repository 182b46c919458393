package sweep

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
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

// prefixedFailing is a topology on servers not ours whose clean-up fails.
type prefixedFailing struct{ closeRecorder }

func (p *prefixedFailing) KeyPrefix() string  { return "lockbench:r1:" }
func (p *prefixedFailing) Spec() backend.Spec { return backend.Spec{Kind: etcd.Kind} }
func (p *prefixedFailing) Close() error {
	p.closeRecorder.Close()
	return errPermission
}

var errPermission = errors.New("etcdserver: permission denied")

// A clean-up that fails on servers not ours is the run's error, naming the prefix left
// behind; a failed Close of servers the run owned is not (nothing of anyone else's stays).
func TestAFailedCleanUpOfServersNotOursIsTheRunsError(t *testing.T) {
	r := &Runner{}
	r.closeTopology(&closeRecorder{}) // owned: its Close error, if any, is no one's keys
	if err := r.cleanupError(); err != nil {
		t.Fatalf("an owned topology's close gave %v", err)
	}
	r.closeTopology(&prefixedFailing{})
	err := r.cleanupError()
	if !errors.Is(err, errPermission) || !strings.Contains(err.Error(), "lockbench:r1:*") {
		t.Errorf("cleanup error %v: want the refusal and the prefix left behind", err)
	}
}
