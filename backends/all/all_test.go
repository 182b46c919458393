package all_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	_ "github.com/lockbench/lockbench/backends/all"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/topologies"
)

func TestEveryKindTheNodeCodeStartsIsRegisteredByItsStore(t *testing.T) {
	want := map[backend.Kind]string{
		topologies.Single: "redis", topologies.Replicated: "redis", topologies.Sentinel: "redis", topologies.Redlock: "redis",
		etcd.Kind: "etcd", topologies.Postgres: "postgres", zookeeper.Kind: "zookeeper",
		"cluster": "rediscluster",
	}
	for k, store := range want {
		sh, err := linked.Catalog().Lookup(k)
		if err != nil || sh.Store() != store {
			t.Errorf("%s: store %q, %v; want %s", k, sh.Store(), err, store)
		}
	}
	for _, k := range linked.Catalog().Kinds() {
		if _, listed := want[k]; shippedKind(k) && !listed {
			t.Errorf("kind %s registered by %s, not listed above", k, storeOf(k))
		}
	}
}

// shippedStores registered the kinds these tests pin. A store added since brings its
// own kinds, which the checks leave aside: it joins with no edit here.
var shippedStores = map[string]bool{"redis": true, "rediscluster": true, "etcd": true, "postgres": true, "zookeeper": true}

func storeOf(k backend.Kind) string {
	sh, _ := linked.Catalog().Lookup(k)
	return sh.Store()
}

func shippedKind(k backend.Kind) bool { return shippedStores[storeOf(k)] }

// shippedKinds keeps the kinds of the shipped stores, in order.
func shippedKinds(kinds []backend.Kind) []backend.Kind {
	var out []backend.Kind
	for _, k := range kinds {
		if shippedKind(k) {
			out = append(out, k)
		}
	}
	return out
}

// withoutNewKinds is err's text with the kinds of stores added since dropped from an
// unknown kind's list of known ones; "<nil>" for no error, as %v prints it.
func withoutNewKinds(err error) string {
	if err == nil {
		return "<nil>"
	}
	head, list, ok := strings.Cut(err.Error(), "want one of ")
	if !ok {
		return err.Error()
	}
	var kept []string
	for _, k := range strings.Split(list, ", ") {
		if shippedKind(backend.Kind(k)) {
			kept = append(kept, k)
		}
	}
	return head + "want one of " + strings.Join(kept, ", ")
}

func TestCapabilitiesAsDeclared(t *testing.T) {
	c := linked.Catalog()
	var networked []backend.Kind
	for _, k := range c.Kinds() {
		if sh, _ := c.Lookup(k); sh.NetworkProfiles() {
			networked = append(networked, k)
		}
	}
	for name, kinds := range map[string]struct{ got, want []backend.Kind }{
		"every kind":          {c.Kinds(), []backend.Kind{"single", "replicated", "sentinel", "redlock", "cluster", "etcd", "postgres", "zookeeper"}},
		"Consensus":           {backend.KindsThat[backend.Consensus](c), []backend.Kind{"etcd", "zookeeper"}},
		"OwnFence":            {backend.KindsThat[backend.OwnFence](c), []backend.Kind{"etcd", "postgres", "zookeeper"}},
		"CounterFence":        {backend.KindsThat[backend.CounterFence](c), []backend.Kind{"single", "replicated", "sentinel"}},
		"Replication":         {backend.KindsThat[backend.Replication](c), []backend.Kind{"replicated", "sentinel", "cluster"}},
		"Failover":            {backend.KindsThat[backend.Failover](c), []backend.Kind{"sentinel"}},
		"IndependentMajority": {backend.KindsThat[backend.IndependentMajority](c), []backend.Kind{"redlock"}},
		"RedisProtocol":       {backend.KindsThat[backend.RedisProtocol](c), []backend.Kind{"single", "replicated", "sentinel", "redlock"}},
		"network profiles":    {networked, []backend.Kind{"single", "replicated", "sentinel", "redlock"}},
	} {
		if got := shippedKinds(kinds.got); !reflect.DeepEqual(got, kinds.want) {
			t.Errorf("%s: %v, want %v", name, got, kinds.want)
		}
	}
}

// The strategies whose clients declare they await every node (redsync without
// fail-fast), and the one that sends the benchmark baseline's command.
func TestStrategyCapabilitiesAsDeclared(t *testing.T) {
	var got []string
	for _, st := range linked.Catalog().Strategies() {
		if st.AwaitsEveryNode {
			got = append(got, st.Name)
			if !st.AwaitsEveryIndependentNode() {
				t.Errorf("%s awaits every node but its kind %s has no independent majority", st.Name, st.Kind())
			}
		}
	}
	if want := []string{"redlock", "redlock-3", "redlock-7"}; !reflect.DeepEqual(got, want) {
		t.Errorf("strategies awaiting every node: %v, want %v", got, want)
	}
	// The one whose acquire is redis-benchmark's SET NX PX: the benchmark table prices it.
	var baseline []string
	for _, st := range linked.Catalog().Strategies() {
		if st.BaselineCommand {
			baseline = append(baseline, st.Name)
		}
	}
	if want := []string{"single"}; !reflect.DeepEqual(baseline, want) {
		t.Errorf("strategies sending the baseline's command: %v, want %v", baseline, want)
	}
}

// The messages Spec.Validate gave before the checks moved into the descriptors; an
// enumeration of 373,248 specs matched the old code's defaults, errors and node names.
func TestSpecValidationAsBefore(t *testing.T) {
	skew := map[string]clocks.Model{"replica-1": {Rate: 1.02}}
	for _, c := range []struct {
		spec backend.Spec
		want string
	}{
		{backend.Spec{Kind: "nosuch"}, `topology kind "nosuch": want one of single, replicated, sentinel, redlock, cluster, etcd, postgres, zookeeper`},
		{backend.Spec{Kind: "cluster", Masters: 2}, "cluster masters = 2: must be >= 3 (a majority of masters promotes a replica)"},
		{backend.Spec{Kind: topologies.Single, Members: 3}, "members = 3, unsafe-no-fsync = false: only etcd and zookeeper topologies have members, only etcd, postgres and zookeeper have unsafe-no-fsync"},
		{backend.Spec{Kind: topologies.Single, Masters: 3}, "masters = 3: only a redlock topology has more than one"},
		{backend.Spec{Kind: topologies.Replicated, Replicas: -1}, "replicas = -1: must be >= 0"},
		{backend.Spec{Kind: topologies.Sentinel, Sentinels: 2, SentinelQuorum: 3}, "sentinel quorum = 3: must be between 1 and sentinels (2)"},
		{backend.Spec{Kind: topologies.Sentinel, DownAfter: -1}, "sentinel down-after (-1ns) and failover-timeout (3s) must be > 0"},
		{backend.Spec{Kind: topologies.Sentinel, Clocks: skew}, ""},
		{backend.Spec{Kind: topologies.Single, Clocks: skew}, `clocks: no node "replica-1" in this topology (nodes: master-0)`},
		{backend.Spec{Kind: topologies.Redlock, Masters: 4}, "redlock masters N = 4: must be 3, 5 or 7 (odd, so a majority is unique)"},
		{backend.Spec{Kind: topologies.Redlock, Masters: -1}, "redlock masters N = -1: must be >= 1"},
		{backend.Spec{Kind: topologies.Single, AppendFsync: "sometimes"}, `appendfsync "sometimes": want always, everysec, no or empty (no persistence)`},
		{backend.Spec{Kind: etcd.Kind, Members: 2}, "etcd members = 2: must be 1, 3 or 5"},
		{backend.Spec{Kind: etcd.Kind, AppendFsync: "always"}, `appendfsync "always": etcd always persists; use UnsafeNoFsync to turn fsync off`},
		{backend.Spec{Kind: etcd.Kind, Masters: 3}, "masters = 3: only a redlock topology has more than one"},
		{backend.Spec{Kind: zookeeper.Kind, Members: 2}, "zookeeper ensemble size (members) = 2: must be odd, 1, 3 or 5 (an even ensemble tolerates no more failures than the odd one below it)"},
		{backend.Spec{Kind: zookeeper.Kind, Clocks: skew}, "replicas = 0, clocks = 1: a zookeeper ensemble has members only and runs on true time"},
		{backend.Spec{Kind: topologies.Postgres, Members: 1}, "members = 1, replicas = 0: a postgres topology is one server"},
		{backend.Spec{Kind: topologies.Postgres, Clocks: skew}, "clocks: a postgres server cannot run under a clock model"},
		{backend.Spec{Kind: topologies.Postgres, UnsafeNoFsync: true}, ""},
	} {
		got := ""
		if err := c.spec.WithDefaults(linked.Catalog()).Validate(linked.Catalog()); err != nil {
			got = withoutNewKinds(err)
		}
		if got != c.want {
			t.Errorf("%+v: %q, want %q", c.spec, got, c.want)
		}
	}
}

func TestDefaultsAsBefore(t *testing.T) {
	for _, c := range []struct {
		spec backend.Spec
		want string
	}{
		{backend.Spec{Kind: topologies.Single}, "masters 1, replicas 0, sentinels 0/0, members 0, down-after 0s, master lockbench"},
		{backend.Spec{Kind: topologies.Replicated}, "masters 1, replicas 2, sentinels 0/0, members 0, down-after 0s, master lockbench"},
		{backend.Spec{Kind: topologies.Sentinel, Sentinels: 5}, "masters 1, replicas 2, sentinels 5/3, members 0, down-after 1s, master lockbench"},
		{backend.Spec{Kind: topologies.Redlock}, "masters 5, replicas 0, sentinels 0/0, members 0, down-after 0s, master lockbench"},
		{backend.Spec{Kind: etcd.Kind}, "masters 1, replicas 0, sentinels 0/0, members 1, down-after 0s, master lockbench"},
		{backend.Spec{Kind: zookeeper.Kind, Members: 3}, "masters 1, replicas 0, sentinels 0/0, members 3, down-after 0s, master lockbench"},
		{backend.Spec{Kind: topologies.Postgres}, "masters 1, replicas 0, sentinels 0/0, members 0, down-after 0s, master lockbench"},
	} {
		d := c.spec.WithDefaults(linked.Catalog())
		got := fmtDefaults(d)
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.spec.Kind, got, c.want)
		}
	}
}

func fmtDefaults(d backend.Spec) string {
	return fmt.Sprintf("masters %d, replicas %d, sentinels %d/%d, members %d, down-after %v, master %s", d.Masters, d.Replicas, d.Sentinels, d.SentinelQuorum, d.Members, d.DownAfter, d.MasterName)
}

func TestEveryStoreSaysWhatItsServersRunOn(t *testing.T) {
	var fromHost []string
	for _, k := range linked.Catalog().Kinds() {
		sh, _ := linked.Catalog().Lookup(k)
		if s := sh.Server(); s.Name == "" || s.Find == nil || s.Version == nil {
			t.Errorf("%s: server requirement %+v lacks a name or a finder", k, s)
		}
		if sh.ImageFromHost() && shippedKind(k) {
			fromHost = append(fromHost, string(k))
		}
	}
	if got := fmt.Sprint(fromHost); got != "[postgres zookeeper]" {
		t.Errorf("kinds whose container image copies this machine's install: %s", got)
	}
	// The Redis kinds share one server, a cluster's included.
	single, _ := linked.Catalog().Lookup(topologies.Single)
	sentinel, _ := linked.Catalog().Lookup(topologies.Sentinel)
	cluster, _ := linked.Catalog().Lookup("cluster")
	if single.Server().Name != "redis-server" || sentinel.Server().Name != single.Server().Name || cluster.Server().Name != single.Server().Name {
		t.Errorf("redis kinds' servers: %q, %q, %q", single.Server().Name, sentinel.Server().Name, cluster.Server().Name)
	}
}
