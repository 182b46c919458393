package backend

import (
	"strings"
	"testing"
)

// A flavour is checked by name and by kind: Redis's kinds take redis or valkey,
// other stores none, and an unknown name is refused naming the known ones.
func TestServerFlavourIsValidatedByNameAndKind(t *testing.T) {
	c := NewCatalog()
	if err := c.Add(Descriptor{Store: "redis", Flavours: ServerFlavours(), Shapes: []Shape{{Kind: "single", Rank: 1, Can: counter{}}}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Add(Descriptor{Store: "etcd", Shapes: []Shape{shape("etcd", 2)}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		spec Spec
		want string // empty: valid
	}{
		{Spec{Kind: "single"}, ""},
		{Spec{Kind: "single", Server: ServerRedis}, ""},
		{Spec{Kind: "single", Server: ServerValkey}, ""},
		{Spec{Kind: "single", Server: "keydb"}, `server "keydb": want redis or valkey`},
		{Spec{Kind: "etcd", Server: ServerValkey}, "only Redis's kinds have a server flavour, not etcd"},
		{Spec{Kind: "etcd"}, ""},
	} {
		err := tc.spec.Validate(c)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v, want valid", tc.spec, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: %v, want an error saying %q", tc.spec, err, tc.want)
		}
	}
	if (Spec{}).FlavourOf() != ServerRedis || (Spec{Server: ServerValkey}).FlavourOf() != ServerValkey {
		t.Error("FlavourOf: an empty flavour is Redis, a named one itself")
	}
}
