package topologies

import (
	"fmt"

	"github.com/lockbench/lockbench/backend"
)

// RefuseOtherFlavour is the check of a provider that runs Redis only (miniredis, the
// Redis images, an external deployment): asked for another flavour, it says so
// instead of running Redis under that flavour's name.
func RefuseOtherFlavour(provider string, spec Spec) error {
	if spec.FlavourOf() == backend.ServerRedis {
		return nil
	}
	return fmt.Errorf("provider %s runs Redis only, not server %q: use --provider process for %s", provider, spec.Server, spec.Server)
}
