package testenv

import (
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
)

// StartShared starts the topology each name needs (specFor says which) with Start, once
// per kind however many names share it, for the whole of tb: a subtest's would stop
// with the subtest. It maps each name to its topology.
func StartShared(tb testing.TB, names []string,
	specFor func(string) (backend.Spec, error)) map[string]topologies.Topology {
	tb.Helper()
	byKind := map[backend.Kind]topologies.Topology{}
	byName := map[string]topologies.Topology{}
	for _, name := range names {
		spec, err := specFor(name)
		if err != nil {
			tb.Fatal(err)
		}
		if _, ok := byKind[spec.Kind]; !ok {
			byKind[spec.Kind] = Start(tb, spec)
		}
		byName[name] = byKind[spec.Kind]
	}
	return byName
}
