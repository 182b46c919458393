package topologies

import "sync"

// The external provider is set, not registered: it exists once a deployment file is
// read (topologies/external.Use), and a later file replaces it.
var (
	externalMu sync.RWMutex
	external   Provider
)

// SetExternalProvider makes p the provider --provider external names.
func SetExternalProvider(p Provider) {
	externalMu.Lock()
	defer externalMu.Unlock()
	external = p
}

func externalProvider() Provider {
	externalMu.RLock()
	defer externalMu.RUnlock()
	return external
}
