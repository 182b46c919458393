package locks

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
)

func TestAtAddrsBuildsTheRegisteredStrategyAtTheGivenAddresses(t *testing.T) {
	var got []string
	none := func(context.Context, topologies.Topology, Options) (Locker, error) { return nil, nil }
	Register(Strategy{Strategy: backend.Strategy{Name: "test-addressed"}, Build: none,
		Addressed: func(_ context.Context, addrs []string, _ Options) (Locker, error) {
			got = addrs
			return nil, nil
		}})
	if _, err := AtAddrs(context.Background(), "test-addressed", []string{"127.0.0.1:1", "127.0.0.1:2"}, Options{}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"127.0.0.1:1", "127.0.0.1:2"}) {
		t.Fatalf("builder got %v", got)
	}
	if _, err := AtAddrs(context.Background(), "test-addressed", nil, Options{}); err == nil || !strings.Contains(err.Error(), "no server address") {
		t.Fatalf("no addresses: got %v, want a refusal naming them", err)
	}
	if _, err := AtAddrs(context.Background(), "no-such-strategy", []string{"127.0.0.1:1"}, Options{}); err == nil || !strings.Contains(err.Error(), "no-such-strategy") {
		t.Fatalf("unknown name: got %v, want a refusal naming it", err)
	}
}
