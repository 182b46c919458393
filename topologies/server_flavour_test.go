package topologies

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
)

// A Redis-only provider serves Redis, named or not, and refuses Valkey naming the
// provider that runs it, so that no run records Redis under Valkey's name.
func TestRedisOnlyProvidersRefuseOtherFlavours(t *testing.T) {
	for _, server := range []string{"", "redis"} {
		if err := RefuseOtherFlavour("embedded", backend.Spec{Kind: Single, Server: server}); err != nil {
			t.Errorf("server %q: %v", server, err)
		}
	}
	err := RefuseOtherFlavour("embedded", backend.Spec{Kind: Single, Server: "valkey"})
	if err == nil || !strings.Contains(err.Error(), "provider embedded runs Redis only") || !strings.Contains(err.Error(), "--provider process") {
		t.Errorf("valkey on embedded: %v, want a refusal naming the provider and --provider process", err)
	}
}
