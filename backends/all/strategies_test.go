package all_test

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/stats"
	_ "github.com/lockbench/lockbench/sweep" // the scaling presets' Redlock sizes and WAIT shapes
	"github.com/lockbench/lockbench/updates"
)

// TestEveryBuiltStrategyIsDeclaredByTheStoreItRunsOn: the strategies the lock registry
// and the update workload can build, and those the stores declare for the lists of
// strategies, are the same names, each on the same kind.
func TestEveryBuiltStrategyIsDeclaredByTheStoreItRunsOn(t *testing.T) {
	built := map[string]backend.Kind{}
	for _, name := range locks.Strategies() {
		spec, err := locks.TopologyFor(name)
		if err != nil {
			t.Fatal(err)
		}
		built[name] = spec.Kind
	}
	for _, name := range updates.LockFree() {
		spec, err := updates.TopologyFor(name)
		if err != nil {
			t.Fatal(err)
		}
		built[name] = spec.Kind
	}
	for name, kind := range built {
		st, ok := linked.Catalog().StrategyOf(name)
		switch {
		case !ok:
			t.Errorf("%s runs on %s, but no store declares it", name, kind)
		case st.Kind() != kind:
			t.Errorf("%s runs on %s, but the store of %s declares it", name, kind, st.Kind())
		}
	}
	for _, st := range linked.Catalog().Strategies() {
		if _, ok := built[st.Name]; !ok {
			t.Errorf("%s is declared by the store of %s, but nothing builds it", st.Name, st.Kind())
		}
		if r := st.Ladder; r != nil && r.From != "" {
			if from, ok := linked.Catalog().StrategyOf(r.From); !ok || from.Ladder == nil {
				t.Errorf("%s is priced beside %s, which is not on the ladder", st.Name, r.From)
			}
		}
		if f := st.KeyedFailover; f != nil {
			if _, ok := linked.Catalog().StrategyOf(f.Store); !ok {
				t.Errorf("%s's failover-loss runs on %s, which no store declares", st.Name, f.Store)
			}
		}
	}
}

// shipped are the strategies declared when the lists moved into the declarations,
// by their positions: plots.KnownStrategies, then the two unsafe etcd variants it did
// not name. The lists are checked on these alone, so a store added since joins them
// without an edit here.
var shipped = strings.Fields("single wait sentinel redlock redlock-failfast etcd etcd-3 zookeeper zookeeper-3 " +
	"redlock-3 redlock-7 wait-1of1 wait-1of2 wait-2of2 wait-1of4 wait-4of4 " +
	"pg-advisory pg-for-update cas-version unique-key atomic lua-cas watch-multi " +
	"cluster cluster-wait cluster-fenced etcd-unsafe-nofsync etcd-3-unsafe-nofsync")

// ofShipped keeps the shipped names of a list, in its order.
func ofShipped(list []string) []string {
	var out []string
	for _, name := range list {
		if slices.Contains(shipped, name) {
			out = append(out, name)
		}
	}
	return out
}

// TestTheListsAsBefore: the lists the stores' declarations now make are those that
// were written out by name before them (main 694bd2f), in the same order.
func TestTheListsAsBefore(t *testing.T) {
	for i, name := range shipped {
		if st, ok := linked.Catalog().StrategyOf(name); !ok || st.Position != i {
			t.Errorf("%s at position %d (declared %v), was %d: its look moved", name, st.Position, ok, i)
		}
	}
	for _, c := range []struct {
		list string
		got  []string
		want string
	}{
		{"capacity's defaults", linked.Catalog().InPreset(backend.CapacitySearch), "single wait sentinel redlock cluster cluster-wait"},
		{"sweep's ladder", linked.Catalog().InPreset(backend.RunMatrix), "single wait sentinel redlock etcd etcd-3 zookeeper zookeeper-3 cluster cluster-wait"},
		{"sweep's update stores", linked.Catalog().InPreset(backend.UpdateMatrix), "single wait sentinel redlock etcd zookeeper pg-advisory pg-for-update cluster cluster-wait"},
		{"sweep's core (scaling)", linked.Catalog().InPreset(backend.ScalingMatrix), "single wait sentinel redlock"},
		{"the quick slow-node sweep", linked.Catalog().InPreset(backend.SlowNodeSweep), "redlock redlock-failfast"},
		{"the quick open-loop sweep", linked.Catalog().InPreset(backend.OpenLoopSweep), "single redlock"},
		{"report's ladder", with(func(st backend.Strategy) bool { return st.Ladder != nil }), "single wait redlock etcd etcd-3 cluster cluster-wait"},
		{"synth's models", with(func(st backend.Strategy) bool { return st.Synthetic != nil }), "single wait sentinel redlock redlock-failfast etcd cluster cluster-wait"},
		{"synth's small set", with(func(st backend.Strategy) bool { return st.Synthetic != nil && st.Synthetic.Small }), "single wait redlock redlock-failfast etcd"},
		{"synth's unproxied", with(func(st backend.Strategy) bool { return st.Synthetic != nil && st.Synthetic.Unproxied }), "cluster cluster-wait"},
		{"adr's keyed failover", with(func(st backend.Strategy) bool { return st.KeyedFailover != nil }), "cluster cluster-wait"},
	} {
		if got := strings.Join(ofShipped(c.got), " "); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.list, got, c.want)
		}
	}
}

// with lists the declared strategies that keep says yes to, by position.
func with(keep func(backend.Strategy) bool) []string {
	var out []string
	for _, st := range linked.Catalog().Strategies() {
		if keep(st) {
			out = append(out, st.Name)
		}
	}
	return out
}

// TestTheSafetyOrderAsBefore: every shipped strategy sorts as the rule by name and
// prefix that stats held before the stores declared their ranks.
func TestTheSafetyOrderAsBefore(t *testing.T) {
	before := func(s string) int {
		switch {
		case s == "single":
			return 0
		case s == "wait":
			return 1
		case s == "sentinel":
			return 2
		case s == "cluster", strings.HasPrefix(s, "cluster-"):
			return 3
		case strings.HasPrefix(s, "redlock"):
			return 4
		case strings.HasPrefix(s, "etcd"), strings.HasPrefix(s, "zookeeper"):
			return 5
		}
		return 6
	}
	names := append([]string(nil), shipped...)
	want := append([]string(nil), names...)
	sort.SliceStable(want, func(i, j int) bool {
		if ri, rj := before(want[i]), before(want[j]); ri != rj {
			return ri < rj
		}
		return want[i] < want[j]
	})
	stats.SortStrategies(linked.Catalog(), names)
	if got := strings.Join(names, " "); got != strings.Join(want, " ") {
		t.Errorf("safety order:\n got %s\nwant %s", got, strings.Join(want, " "))
	}
}

// TestEveryRedisStrategyHasAnAllowList: the strategies that open Redis clients of their
// own (their variants, wait-1of2 or redlock-3, run under these names) send through
// redisconn, whose hook refuses a purpose with no list; each store gives its lists
// where it registers its strategies, so the lists exist once the stores are linked.
func TestEveryRedisStrategyHasAnAllowList(t *testing.T) {
	for _, name := range []string{"single", "wait", "sentinel", "redlock", "redlock-failfast", "cluster", "cluster-wait", "cluster-fenced"} {
		if _, err := locks.TopologyFor(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if redisconn.Allowed(name) == nil {
			t.Errorf("%s has no allow-list", name)
		}
	}
}
