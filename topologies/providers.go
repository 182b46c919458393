package topologies

import (
	"fmt"
	"sync"

	"github.com/lockbench/lockbench/internal/registry"
)

// Providers are registered by name; each topology kind has a default one. Providers
// with heavy dependencies (embedded etcd) register from their own package, so that
// programs that do not import them do not carry them.
var (
	providers = func() *registry.Registry[Provider] {
		r := registry.New[Provider]("provider")
		r.Add("process", Process{})
		return r
	}()
	defaultsMu        sync.RWMutex
	defaultProviderOf = map[Kind]string{Single: "process", Replicated: "process", Sentinel: "process", Redlock: "process"}
)

// RegisterProvider adds p under p.Name(); as default it serves the given kinds.
func RegisterProvider(p Provider, defaultFor ...Kind) {
	providers.Add(p.Name(), p)
	defaultsMu.Lock()
	defer defaultsMu.Unlock()
	for _, k := range defaultFor {
		defaultProviderOf[k] = p.Name()
	}
}

// ProviderNamed returns the provider registered as name.
func ProviderNamed(name string) (Provider, error) { return providers.Get(name) }

// ProviderNames lists the registered providers, sorted.
func ProviderNames() []string { return providers.Names() }

// DefaultProvider returns the provider that serves kind unless told otherwise.
func DefaultProvider(kind Kind) (Provider, error) {
	defaultsMu.RLock()
	name, ok := defaultProviderOf[kind]
	defaultsMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("no provider serves topology kind %q (is its package imported?)", kind)
	}
	return ProviderNamed(name)
}
