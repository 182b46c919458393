package testenv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
)

// sharing holds the topologies a package's tests share: one per spec, started by the
// first test that asks and closed by Main after the last.
var sharing struct {
	sync.Mutex
	running bool // Main is running the tests: someone will close what Shared starts
	started map[string]*sharedTopology
}

type sharedTopology struct {
	once sync.Once
	topo topologies.Topology
	err  error
}

// Main runs a package's tests, then closes every topology they shared, whatever the
// tests did: call it from TestMain as os.Exit(testenv.Main(m)).
func Main(m *testing.M) int {
	sharing.Lock()
	sharing.running, sharing.started = true, map[string]*sharedTopology{}
	sharing.Unlock()
	code := m.Run()
	if err := closeShared(); err != nil {
		fmt.Fprintf(os.Stderr, "FAIL: closing the shared topologies: %v\n", err)
		code = 1
	}
	return code
}

// Shared returns the package's one topology of spec, started on first use with the
// provider Start would use, and closed by Main. It is for tests that neither kill,
// pause nor partition it, each on keys of its own (Key): such tests may run in parallel.
func Shared(tb testing.TB, spec backend.Spec) topologies.Topology {
	tb.Helper()
	provider := providerReadyFor(tb, spec)
	sharing.Lock()
	if !sharing.running {
		sharing.Unlock()
		tb.Fatal("testenv.Shared needs testenv.Main in the package's TestMain, which closes what it starts")
	}
	id := fmt.Sprintf("%s %+v", provider.Name(), spec)
	entry, ok := sharing.started[id]
	if !ok {
		entry = &sharedTopology{}
		sharing.started[id] = entry
	}
	sharing.Unlock()
	entry.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), StartBound)
		defer cancel()
		entry.topo, entry.err = provider.Start(ctx, spec)
	})
	if entry.err != nil {
		tb.Fatalf("start the shared %s topology (provider %s): %v", spec.Kind, provider.Name(), entry.err)
	}
	return entry.topo
}

// closeShared closes every shared topology that started.
func closeShared() error {
	sharing.Lock()
	defer sharing.Unlock()
	var errs []error
	for id, entry := range sharing.started {
		if entry.topo != nil {
			if err := entry.topo.Close(); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", id, err))
			}
		}
	}
	sharing.started = nil
	return errors.Join(errs...)
}

// Key is name made the test's own, for tests that share a topology: two tests (or a
// test's subtests) never touch each other's keys.
func Key(tb testing.TB, name string) string {
	return keySafe.Replace(tb.Name()) + ":" + name
}

// keySafe keeps a test's name usable as a key everywhere: a ZooKeeper node name takes
// no slash, and spaces read badly in a server's logs.
var keySafe = strings.NewReplacer("/", ".", " ", "_")
