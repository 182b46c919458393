package sweep_test

import (
	"context"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestCommandsServedCountsExactlyWhatRan: the count a run reads (redisadmin) is exact:
// between two
// readings a server that ran ten SETs and a GET counts eleven, the readings' INFO left out.
func TestCommandsServedCountsExactlyWhatRan(t *testing.T) {
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single})
	ctx, addr := context.Background(), topo.Masters()[0].Addr()
	c := redisadmin.AdminClient(addr)
	defer c.Close()
	if err := c.Ping(ctx).Err(); err != nil { // its connection's HELLO before the readings
		t.Fatal(err)
	}
	counter := redisadmin.NewCommandCounter(addr)
	defer counter.Close()
	before, err := counter.Served(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if err := c.Set(ctx, "k", i, 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Get(ctx, "k").Err(); err != nil {
		t.Fatal(err)
	}
	after, err := counter.Served(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := after - before; got != 11 {
		t.Errorf("the server counted %d commands between the readings, want 11", got)
	}
}
