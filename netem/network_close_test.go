package netem_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/netem"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
	"github.com/redis/go-redis/v9"
)

// Every connection's toxics hold a timerfd; closing the network must give them all
// back, along with the proxies' sockets.
func TestCloseReleasesEveryDescriptor(t *testing.T) {
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single})
	before := openFDs(t)
	network, err := netem.Start(topo, netem.Profile{Name: "uniform", Latency: time.Millisecond}, 1)
	if err != nil {
		t.Fatal(err)
	}
	upstream := topo.Masters()[0].Addr()
	for range 3 { // several connections, each with its own pair of toxics
		c := redis.NewClient(&redis.Options{Addr: network.ProxyAddr(upstream), PoolSize: 1, Protocol: 2, DisableIdentity: true})
		if err := c.Ping(context.Background()).Err(); err != nil {
			t.Fatal(err)
		}
		c.Close()
	}
	network.Close()
	deadline := time.Now().Add(10 * time.Second)
	for openFDs(t) > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d descriptors open 10 s after Close, %d before Start", openFDs(t), before)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func openFDs(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		testenv.MissingTool(t, fmt.Errorf("no /proc/self/fd: %w", err))
	}
	return len(entries)
}
