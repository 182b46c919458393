package topologies

import (
	"fmt"
	"slices"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
)

// RefuseOtherFlavour is the check of a provider that runs Redis only (miniredis, the
// Redis images, an external deployment): asked for another flavour, it says so
// instead of running Redis under that flavour's name.
func RefuseOtherFlavour(provider string, spec backend.Spec) error {
	if spec.FlavourOf() == backend.ServerRedis {
		return nil
	}
	return fmt.Errorf("provider %s runs Redis only, not server %q: use --provider process for %s", provider,
		spec.Server, spec.Server)
}

// OnFlavour is spec on server where its kind's store runs that flavour (Redis's kinds);
// other stores' kinds, and every kind when server is empty, keep their own.
func OnFlavour(spec backend.Spec, server string) backend.Spec {
	if sh, err := linked.Catalog().Lookup(spec.Kind); err == nil && server != "" &&
		slices.Contains(sh.Flavours(), server) {
		spec.Server = server
	}
	return spec
}
