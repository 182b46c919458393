// Package providerspec checks the spec given to a provider that runs one kind of
// topology only (the store backends' own process providers).
package providerspec

import (
	"fmt"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
)

// Check is spec with its defaults, refused unless it is valid and of kind, the only
// kind provider runs.
func Check(spec backend.Spec, kind backend.Kind, provider string) (backend.Spec, error) {
	spec = spec.WithDefaults(linked.Catalog())
	if err := spec.Validate(linked.Catalog()); err != nil {
		return spec, err
	}
	if spec.Kind != kind {
		return spec, fmt.Errorf("topology kind %q: the %s provider runs only %s", spec.Kind, provider, kind)
	}
	return spec, nil
}
