package topologies

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Providers are registered by name; each topology kind has a default one. Providers
// with heavy dependencies (embedded etcd) register from their own package, so that
// programs that do not import them do not carry them.
var providers = struct {
	sync.RWMutex
	byName    map[string]Provider
	byDefault map[Kind]string
}{
	byName: map[string]Provider{"process": Process{}},
	byDefault: map[Kind]string{
		Single: "process", Replicated: "process", Sentinel: "process", Redlock: "process",
	},
}

// RegisterProvider adds p under p.Name(); as default it serves the given kinds.
func RegisterProvider(p Provider, defaultFor ...Kind) {
	providers.Lock()
	defer providers.Unlock()
	if _, dup := providers.byName[p.Name()]; dup {
		panic("topologies: provider registered twice: " + p.Name())
	}
	providers.byName[p.Name()] = p
	for _, k := range defaultFor {
		providers.byDefault[k] = p.Name()
	}
}

// ProviderNamed returns the provider registered as name.
func ProviderNamed(name string) (Provider, error) {
	providers.RLock()
	defer providers.RUnlock()
	p, ok := providers.byName[name]
	if !ok {
		return nil, fmt.Errorf("unknown provider %q: want one of %s", name, strings.Join(providerNamesLocked(), ", "))
	}
	return p, nil
}

// ProviderNames lists the registered providers, sorted.
func ProviderNames() []string {
	providers.RLock()
	defer providers.RUnlock()
	return providerNamesLocked()
}

func providerNamesLocked() []string {
	names := make([]string, 0, len(providers.byName))
	for n := range providers.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DefaultProvider returns the provider that serves kind unless told otherwise.
func DefaultProvider(kind Kind) (Provider, error) {
	providers.RLock()
	name, ok := providers.byDefault[kind]
	providers.RUnlock()
	if !ok {
		return nil, fmt.Errorf("no provider serves topology kind %q (is its package imported?)", kind)
	}
	return ProviderNamed(name)
}
