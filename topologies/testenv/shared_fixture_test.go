package testenv_test

import (
	"os"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	_ "github.com/lockbench/lockbench/backends/redis/redisstore" // the one store Shared starts here
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// Two tests asking for one spec get one topology; another spec gets its own.
func TestSharedStartsOneTopologyPerSpec(t *testing.T) {
	var first topologies.Topology
	t.Run("a", func(t *testing.T) { first = testenv.Shared(t, backend.Spec{Kind: topologies.Single}) })
	t.Run("b", func(t *testing.T) {
		if again := testenv.Shared(t, backend.Spec{Kind: topologies.Single}); again != first {
			t.Errorf("second Shared of one spec started another topology: %p, then %p", first, again)
		}
		other := testenv.Shared(t, backend.Spec{Kind: topologies.Replicated, Replicas: 1})
		if other == first {
			t.Error("a replicated spec got the single master's topology")
		}
	})
}

// Subtests sharing servers never share a key, and a key names no path.
func TestKeyIsTheTestsOwn(t *testing.T) {
	var keys []string
	for _, name := range []string{"one", "two/deep"} {
		t.Run(name, func(t *testing.T) { keys = append(keys, testenv.Key(t, "k")) })
	}
	if keys[0] == keys[1] {
		t.Errorf("two subtests got one key %q", keys[0])
	}
	for _, k := range keys {
		if strings.Contains(k, "/") || !strings.HasSuffix(k, ":k") {
			t.Errorf("key %q: want the test's name without slashes, then :k", k)
		}
	}
}
