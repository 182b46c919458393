package suite

import (
	"context"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"

	// Redis's descriptor declares the flavours its kinds run.
	_ "github.com/lockbench/lockbench/backends/redis/redisstore"
)

// A scenario's topologies start on --server's flavour where their kind has flavours;
// a kind of another store, and every kind without --server, keep the spec as asked.
func TestScenarioTopologiesStartOnTheServerFlavour(t *testing.T) {
	for _, tc := range []struct {
		server string
		kind   backend.Kind
		want   string
	}{
		{backend.ServerValkey, topologies.Single, backend.ServerValkey},
		{backend.ServerValkey, topologies.Sentinel, backend.ServerValkey},
		{backend.ServerValkey, topologies.Postgres, ""},
		{"", topologies.Single, ""},
	} {
		var started backend.Spec
		start := onFlavour(func(_ context.Context, spec backend.Spec) (topologies.Topology, error) {
			started = spec
			return nil, nil
		}, tc.server)
		if _, err := start(context.Background(), backend.Spec{Kind: tc.kind}); err != nil {
			t.Fatal(err)
		}
		if started.Server != tc.want {
			t.Errorf("--server %q, kind %s: started on %q, want %q", tc.server, tc.kind, started.Server, tc.want)
		}
	}
}
