package redistopo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// Every Redis kind started with server valkey runs valkey-server on each of its nodes,
// sentinels and a cluster's included, and with server redis none does.
func TestServerFlavourRunsOnEveryNodeOfEveryKind(t *testing.T) {
	testenv.RequireValkey(t)
	testenv.RequireRedis(t)
	// "cluster" is backends/rediscluster's kind, whose process provider runs the flavour too.
	kinds := []backend.Kind{topologies.Single, topologies.Replicated, topologies.Sentinel, topologies.Redlock, "cluster"}
	for _, flavour := range backend.ServerFlavours() {
		for _, kind := range kinds {
			t.Run(flavour+"/"+string(kind), func(t *testing.T) {
				t.Parallel()
				spec := backend.Spec{Kind: kind, Server: flavour, Replicas: 1}
				if kind == topologies.Redlock || kind == "cluster" {
					spec.Masters = 3
				}
				topo := testenv.Start(t, spec)
				for _, n := range topo.Nodes() {
					server, err := redisadmin.RunningServer(context.Background(), n.Addr())
					if err != nil {
						t.Fatalf("%s: %v", n.Name(), err)
					}
					if !strings.HasPrefix(server, flavour+" ") {
						t.Errorf("%s runs %s, want %s", n.Name(), server, flavour)
					}
				}
			})
		}
	}
}
