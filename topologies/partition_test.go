package topologies

import (
	"context"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
)

type namedProvider string

func (p namedProvider) Name() string { return string(p) }
func (namedProvider) Start(context.Context, backend.Spec) (Topology, error) {
	panic("CanPartition must not start anything")
}

// The container family partitions, a provider of another family is refused by name,
// before anything starts.
func TestCanPartitionOnlyInTheContainerFamily(t *testing.T) {
	JoinFamily("container", "partition-test-kind", "partition-test-container")
	JoinFamily("process", "partition-test-kind", "partition-test-process")
	for _, name := range []string{"container", "partition-test-container"} {
		if err := CanPartition(namedProvider(name)); err != nil {
			t.Errorf("%s: %v, want nil", name, err)
		}
	}
	for _, name := range []string{"process", "partition-test-process", "external"} {
		if err := CanPartition(namedProvider(name)); err == nil || !strings.Contains(err.Error(), "provider "+name+" cannot partition") {
			t.Errorf("%s: %v, want a refusal naming it", name, err)
		}
	}
}
