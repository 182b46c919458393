package backend

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func shape(k Kind, rank int) Shape { return Shape{Kind: k, Rank: rank} }

// Test capabilities: a counter on one master, a raft group, a sequenced server.
type (
	counter struct{}
	sql     struct{}
)

func (counter) CounterFence() string  { return "INCR" }
func (sql) OwnFence() string          { return "sequence" }
func (counter) Replicas(s Spec) int   { return s.Replicas }
func (counter) Sentinels(s Spec) int  { return 0 }
func (counter) RedisMasters(Spec) int { return 1 }

func TestUnknownKindNamesTheKnownOnesInRankOrder(t *testing.T) {
	s := NewCatalog()
	if err := s.Add(Descriptor{Store: "b", Shapes: []Shape{shape("late", 20), shape("early", 10)}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(Descriptor{Store: "a", Shapes: []Shape{shape("middle", 15)}}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Lookup("cluster")
	if err == nil || err.Error() != `topology kind "cluster": want one of early, middle, late` {
		t.Errorf("lookup(cluster) = %v", err)
	}
	if _, err := NewCatalog().Lookup("single"); err == nil || !strings.Contains(err.Error(), "none registered (import backends/all)") {
		t.Errorf("an empty registry's error does not say what to import: %v", err)
	}
	sh, err := s.Lookup("middle")
	if err != nil || sh.Store() != "a" || sh.Rank != 15 {
		t.Errorf("lookup(middle) = %+v, %v", sh, err)
	}
	// What a failed lookup returns answers without a store rather than panicking.
	none, _ := s.Lookup("cluster")
	if none.Store() != "" || none.ImageFromHost() || none.Server().Find != nil {
		t.Errorf("an unknown kind's shape claims a store: %q", none.Store())
	}
}

func TestARepeatedStoreOrKindIsRefused(t *testing.T) {
	s := NewCatalog()
	if err := s.Add(Descriptor{Store: "redis", Shapes: []Shape{shape("single", 1), shape("redlock", 2)}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		d    Descriptor
		want string
	}{
		{Descriptor{Store: "redis", Shapes: []Shape{shape("cluster", 3)}}, "store registered twice: redis"},
		{Descriptor{Store: "keydb", Shapes: []Shape{shape("cluster", 3), shape("single", 4)}}, "kind single registered twice (by redis and keydb)"},
		{Descriptor{Store: "empty"}, "at least one kind"},
		{Descriptor{Shapes: []Shape{shape("x", 1)}}, "needs a store name"},
		{Descriptor{Store: "nameless", Shapes: []Shape{shape("", 1)}}, "store nameless: kind 0 has no name"},
	} {
		if err := s.Add(c.d); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("add(%+v) = %v, want an error with %q", c.d, err, c.want)
		}
	}
	// A refused descriptor leaves nothing behind: keydb's cluster was not half-registered.
	if _, err := s.Lookup("cluster"); err == nil {
		t.Error("a refused descriptor registered one of its kinds")
	}
}

func TestCapabilityQueryReturnsExactlyTheKindsThatImplementIt(t *testing.T) {
	s := NewCatalog()
	for _, d := range []Descriptor{
		{Store: "kv", Shapes: []Shape{{Kind: "kv-one", Rank: 1, Can: counter{}}, shape("kv-many", 2)}},
		{Store: "raft", Shapes: []Shape{{Kind: "raft", Rank: 3, Can: ConsensusGroup{Fence: "revision"}}}},
		{Store: "sql", Shapes: []Shape{{Kind: "sql", Rank: 4, Can: sql{}, NoNetwork: "a test"}}},
	} {
		if err := s.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range map[string]struct{ got, want []Kind }{
		"OwnFence":     {KindsThat[OwnFence](s), []Kind{"raft", "sql"}},
		"Consensus":    {KindsThat[Consensus](s), []Kind{"raft"}},
		"CounterFence": {KindsThat[CounterFence](s), []Kind{"kv-one"}},
		"Failover":     {KindsThat[Failover](s), []Kind{"kv-one"}},
		"Majority":     {KindsThat[IndependentMajority](s), nil},
		"every kind":   {s.Kinds(), []Kind{"kv-one", "kv-many", "raft", "sql"}},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: %v, want %v", name, c.got, c.want)
		}
	}
	if q, ok := CanOf[Consensus](s, "raft"); !ok || q.Quorum(Spec{Members: 5}) != 3 {
		t.Errorf("raft's quorum of 5 members: %v, %v; want 3", q, ok)
	}
	if KindIs[OwnFence](s, "no-such-kind") {
		t.Error("an unknown kind has a capability")
	}
	if sh, _ := s.Lookup("sql"); sh.NetworkProfiles() {
		t.Error("a kind that says why it runs under no network profile is offered them")
	}
}

func TestSpecAsksTheKindsDescriptor(t *testing.T) {
	// A catalog of one test kind: its defaults run before the shared ones, its validation
	// before clocks and appendfsync.
	refused := errors.New("test kind refuses three replicas")
	c := NewCatalog()
	if err := c.Add(Descriptor{Store: "test-only-spec", Shapes: []Shape{{
		Kind: "test-only-spec", Rank: 1001, Can: counter{},
		Defaults: func(s Spec) Spec {
			if s.Replicas == 0 {
				s.Replicas = 1
			}
			return s
		},
		Validate: func(s Spec) error {
			if s.Replicas == 3 {
				return refused
			}
			return nil
		},
	}}}); err != nil {
		t.Fatal(err)
	}
	d := Spec{Kind: "test-only-spec"}.WithDefaults(c)
	if d.Replicas != 1 || d.Masters != 1 || d.MasterName != "lockbench" {
		t.Errorf("defaults = %+v", d)
	}
	if got := fmt.Sprint(d.NodeNames(c)); got != "[master-0 replica-0]" {
		t.Errorf("node names = %s: a kind with replication lists its replicas", got)
	}
	if err := (Spec{Kind: "test-only-spec", Replicas: 3}).WithDefaults(c).Validate(c); !errors.Is(err, refused) {
		t.Errorf("validate = %v, want the descriptor's refusal", err)
	}
	if err := (Spec{Kind: "test-only-spec", AppendFsync: "sometimes"}).WithDefaults(c).Validate(c); err == nil || !strings.Contains(err.Error(), `appendfsync "sometimes"`) {
		t.Errorf("validate = %v, want the shared appendfsync check", err)
	}
	if err := (Spec{Kind: "test-only-spec"}).WithDefaults(c).Validate(c); err != nil {
		t.Errorf("validate = %v", err)
	}
}
