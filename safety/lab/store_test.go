package lab

import (
	"context"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// A store adapter whose kind has no descriptor is refused by name, not left to fit no
// scenario in silence (etcd's adapter once registered without its descriptor).
func TestStoreForRefusesAKindWithoutDescriptor(t *testing.T) {
	const kind = "lab-test-undescribed"
	locks.Register(kind, topologies.Spec{Kind: kind}, func(context.Context, topologies.Topology, locks.Options) (locks.Locker, error) {
		return nil, nil
	})
	RegisterStore(kind, func(string, topologies.Spec) Store { return nil }) // refused before it is built
	_, err := StoreFor(kind)
	if err == nil || !strings.Contains(err.Error(), "descriptor is not registered") {
		t.Fatalf("StoreFor(%s) = %v, want the missing descriptor named", kind, err)
	}
	for _, s := range StrategiesWhere(AnyStore) {
		if s == kind {
			t.Errorf("StrategiesWhere lists %s, whose store cannot be built", kind)
		}
	}
}
