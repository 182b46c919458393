// Package nemesis is the safety lab's faults: one small file per fault behind the
// Fault interface, registered by name (as toxiproxy's toxics are), and a schedule that
// injects them at offsets. Every act is noted in the trial's history.
package nemesis

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/lockbench/lockbench/internal/registry"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/topologies"
)

// Target is what a fault acts on. A fault reads the fields it needs.
type Target struct {
	Topology topologies.Topology
	Nodes    []topologies.Node // the nodes to act on; faults say what empty means
	Client   Stoppable         // for faults on a lock client
	Duration time.Duration     // for faults that heal by themselves after a while
	Recorder *history.Recorder // where the fault notes that it acted
}

// Stoppable is a lock client the nemesis can stop like a GC pause, resume, or kill.
type Stoppable interface {
	Pause()
	Resume()
	Crash()
	String() string // its name, for the fault's note
}

// Heal undoes a fault where that is possible (SIGCONT after SIGSTOP); for faults that
// cannot be undone (SIGKILL) it does nothing.
type Heal func(ctx context.Context) error

// NoHeal is the Heal of a fault nothing undoes.
func NoHeal(context.Context) error { return nil }

// once is h run at most once: a heal due at a set point can also be deferred, for the
// paths that never reach that point, without undoing the fault twice.
func once(h Heal) Heal {
	var done sync.Once
	var err error
	return func(ctx context.Context) error {
		done.Do(func() { err = h(ctx) })
		return err
	}
}

// Fault is one way of breaking something, in one small file, registered by name.
type Fault interface {
	Name() string
	Inject(ctx context.Context, t Target) (Heal, error)
}

var faults = registry.New[Fault]("fault")

// Register adds f under f.Name(); a duplicate name is a programming error.
func Register(f Fault) { faults.Add(f.Name(), f) }

// Named returns the registered fault called name.
func Named(name string) (Fault, error) { return faults.Get(name) }

// Names lists the registered faults, sorted.
func Names() []string { return faults.Names() }

// Inject runs the registered fault name on t; scenarios use it so every fault they
// cause goes through the registry and into the history. Its heal undoes the fault at
// most once, however often it is called (at its point, and deferred).
func Inject(ctx context.Context, name string, t Target) (Heal, error) {
	f, err := Named(name)
	if err != nil {
		return nil, err
	}
	heal, err := f.Inject(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("fault %s: %w", name, err)
	}
	return once(heal), nil
}

// note records that the nemesis acted.
func (t Target) note(detail string) {
	if t.Recorder != nil {
		t.Recorder.Record(history.Event{Client: "nemesis", Kind: history.FaultInjected, Detail: detail})
	}
}

// nodeNames is for fault notes.
// onNodes notes what a node fault does and to which nodes, does it to each of them
// (all, even after one fails) and joins their errors: the way every node fault acts.
func onNodes(t Target, what string, nodes []topologies.Node, act func(topologies.Node) error) error {
	t.note(what + " " + nodeNames(nodes))
	var errs []error
	for _, n := range nodes {
		errs = append(errs, act(n))
	}
	return errors.Join(errs...)
}

func nodeNames(nodes []topologies.Node) string {
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = n.Name() + "@" + n.Addr()
	}
	return strings.Join(names, ",")
}
