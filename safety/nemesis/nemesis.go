package safety

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lockbench/lockbench/topologies"
)

// Target is what a fault acts on. A fault reads the fields it needs.
type Target struct {
	Topology topologies.Topology
	Nodes    []topologies.Node // the nodes to act on; faults say what empty means
	Client   *Client           // for faults on a lock client
	Duration time.Duration     // for faults that heal by themselves after a while
	Recorder *Recorder         // where the fault notes that it acted
}

// Heal undoes a fault where that is possible (SIGCONT after SIGSTOP); for faults that
// cannot be undone (SIGKILL) it does nothing.
type Heal func(ctx context.Context) error

func noHeal(context.Context) error { return nil }

// Fault is one way of breaking something, in one small file, registered by name.
type Fault interface {
	Name() string
	Inject(ctx context.Context, t Target) (Heal, error)
}

var faults = struct {
	sync.RWMutex
	byName map[string]Fault
}{byName: map[string]Fault{}}

// RegisterFault adds f under f.Name(); a duplicate name is a programming error.
func RegisterFault(f Fault) {
	faults.Lock()
	defer faults.Unlock()
	if _, dup := faults.byName[f.Name()]; dup {
		panic("safety: fault registered twice: " + f.Name())
	}
	faults.byName[f.Name()] = f
}

// FaultNamed returns the registered fault called name.
func FaultNamed(name string) (Fault, error) {
	faults.RLock()
	defer faults.RUnlock()
	f, ok := faults.byName[name]
	if !ok {
		return nil, fmt.Errorf("unknown fault %q: want one of %s", name, strings.Join(faultNamesLocked(), ", "))
	}
	return f, nil
}

// FaultNames lists the registered faults, sorted.
func FaultNames() []string {
	faults.RLock()
	defer faults.RUnlock()
	return faultNamesLocked()
}

func faultNamesLocked() []string {
	names := make([]string, 0, len(faults.byName))
	for n := range faults.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// inject runs the registered fault name on t; scenarios use it so every fault they
// cause goes through the registry and into the history.
func inject(ctx context.Context, name string, t Target) (Heal, error) {
	f, err := FaultNamed(name)
	if err != nil {
		return nil, err
	}
	heal, err := f.Inject(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("fault %s: %w", name, err)
	}
	return heal, nil
}

// note records that the nemesis acted.
func (t Target) note(detail string) {
	if t.Recorder != nil {
		t.Recorder.Record(Event{Client: "nemesis", Kind: FaultInjected, Detail: detail})
	}
}

// nodeNames is for fault notes.
func nodeNames(nodes []topologies.Node) string {
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = n.Name() + "@" + n.Addr()
	}
	return strings.Join(names, ",")
}
