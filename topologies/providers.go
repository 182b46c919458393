package topologies

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/internal/registry"
)

// Providers are registered by name (a store's own from its registration, the container
// and embedded providers from their packages), so that
// programs that do not import one do not carry it; each topology kind has a default one.
var (
	providers         = registry.New[Provider]("provider")
	defaultsMu        sync.RWMutex
	defaultProviderOf = map[backend.Kind]string{}
)

// families name a way of running servers across kinds: --provider process means
// redis-server for the Redis kinds and the kind's own process provider for the others.
// A kind missing from a family is served by the provider registered under the family's name.
// Stores with providers of their own join by their registration (backends/store).
var families = map[string]map[backend.Kind]string{
	"process":   {},
	"embedded":  {},
	"container": {},
	"auto":      {},
}

// Available is implemented by providers that depend on something outside this program
// (a container engine): nil when it answers, else an error saying what to install or start.
type Available interface {
	Available(ctx context.Context) error
}

// RegisterProvider adds p under p.Name(); as default it serves the given kinds.
func RegisterProvider(p Provider, defaultFor ...backend.Kind) {
	providers.Add(p.Name(), p)
	defaultsMu.Lock()
	defer defaultsMu.Unlock()
	for _, k := range defaultFor {
		defaultProviderOf[k] = p.Name()
	}
}

// JoinFamily makes provider serve kind when family (process, embedded, container) is
// asked for: a store in its own folder joins a family without a name here. An unknown
// family is a programming error and panics.
func JoinFamily(family string, kind backend.Kind, provider string) {
	defaultsMu.Lock()
	defer defaultsMu.Unlock()
	if families[family] == nil {
		panic("topologies: no provider family " + family)
	}
	families[family][kind] = provider
}

// SpecOfOwnKind is spec with its defaults, refused unless it is valid and of kind, the
// only kind provider runs (a store's own process provider).
func SpecOfOwnKind(spec backend.Spec, kind backend.Kind, provider string) (backend.Spec, error) {
	spec = spec.WithDefaults(linked.Catalog())
	if err := spec.Validate(linked.Catalog()); err != nil {
		return spec, err
	}
	if spec.Kind != kind {
		return spec, fmt.Errorf("topology kind %q: the %s provider runs only %s", spec.Kind, provider, kind)
	}
	return spec, nil
}

// OwnProcessProvider says which provider runs kind's servers as processes, or that
// none registered: the kind's package was not imported.
func OwnProcessProvider(kind backend.Kind) string {
	defaultsMu.RLock()
	defer defaultsMu.RUnlock()
	if name, ok := families["process"][kind]; ok {
		return "its servers run with provider " + name + " (--provider process picks it)"
	}
	return "no provider of this program runs its servers (import backends/all)"
}

// InFamily says whether provider serves some kind for family (zookeeper-process is
// the process family's member for zookeeper).
func InFamily(family, provider string) bool {
	defaultsMu.RLock()
	defer defaultsMu.RUnlock()
	for _, member := range families[family] {
		if member == provider {
			return true
		}
	}
	return false
}

// ProviderNamed returns the provider registered as name. A family name (process,
// embedded, container, auto) returns a provider that picks the family's member per kind.
func ProviderNamed(name string) (Provider, error) {
	if name == "external" {
		if p := externalProvider(); p != nil {
			return p, nil
		}
		return nil, errors.New("provider external: no deployment given: pass --deployment FILE (or deployment: in the " +
			"config, LOCKBENCH_DEPLOYMENT in tests); see docs/external.md")
	}
	if _, ok := families[name]; ok {
		if name == "container" {
			if _, err := providers.Get(name); err != nil {
				return nil, errors.New("provider container: not linked into this program (import topologies/container)")
			}
		}
		return familyProvider{family: name}, nil
	}
	return providers.Get(name)
}

// ProviderNames lists the registered providers and auto, sorted.
func ProviderNames() []string {
	names := append(providers.Names(), "auto", "external")
	sort.Strings(names)
	return names
}

func joinNames() string {
	s := ""
	for i, n := range ProviderNames() {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// ProviderFor returns the concrete provider that serves kind when name is asked for;
// name may be a family (process, embedded, container, auto) or a registered provider.
// It says once per kind what auto picked, or which default stood in for a family member.
func ProviderFor(name string, kind backend.Kind) (Provider, error) {
	p, autoNote, fallbackNote, err := resolveProvider(name, kind)
	if autoNote != "" {
		report(kind, autoNote)
	}
	if err != nil {
		return nil, err
	}
	if fallbackNote != "" {
		report(kind, fallbackNote)
	}
	return p, nil
}

// ProviderServing is ProviderFor without the reports: what would serve kind, for
// checks that start nothing (lockbench doctor, the preflight of a run).
func ProviderServing(name string, kind backend.Kind) (Provider, error) {
	p, _, _, err := resolveProvider(name, kind)
	return p, err
}

// resolveProvider picks the concrete provider, and the notes ProviderFor prints.
func resolveProvider(name string, kind backend.Kind) (p Provider, autoNote, fallbackNote string, err error) {
	if name == "external" {
		p, err = ProviderNamed(name)
		return p, "", "", err
	}
	if name == "auto" {
		pick, reason, err := autoChoose(kind)
		if err != nil {
			return nil, "", "", err
		}
		autoNote = fmt.Sprintf("provider auto: %s for %s topologies (%s)", pick, kind, reason)
		name = pick
	}
	defaultsMu.RLock()
	member, ok := families[name][kind]
	defaultsMu.RUnlock()
	if ok {
		name = member
	}
	if p, err = providers.Get(name); err != nil {
		return nil, autoNote, "", err
	}
	// A family member that does not serve kind yet (containers for the other stores)
	// leaves it to the kind's default, and says so.
	if s, ok := p.(interface{ Serves(backend.Kind) bool }); ok && !s.Serves(kind) {
		d, err := DefaultProvider(kind)
		if err != nil {
			return nil, autoNote, "", err
		}
		if _, family := families[d.Name()]; !family {
			return d, autoNote, fmt.Sprintf("provider %s does not serve %s topologies yet: using %s", name, kind, d.Name()), nil
		}
		return nil, autoNote, "", fmt.Errorf("provider %s does not serve %s topologies", name, kind)
	}
	return p, autoNote, "", nil
}

// familyProvider resolves its family to a concrete provider for each spec's kind.
type familyProvider struct{ family string }

func (f familyProvider) Name() string { return f.family }

func (f familyProvider) Start(ctx context.Context, spec backend.Spec) (Topology, error) {
	p, err := ProviderFor(f.family, spec.Kind)
	if err != nil {
		return nil, err
	}
	return p.Start(ctx, spec)
}

// Available reports whether the family can serve at all (the container engine answers).
func (f familyProvider) Available(ctx context.Context) error {
	if f.family != "container" {
		return nil
	}
	p, err := providers.Get("container")
	if err != nil {
		return err
	}
	if a, ok := p.(Available); ok {
		return a.Available(ctx)
	}
	return nil
}

var (
	autoMu     sync.Mutex
	autoOut    io.Writer = os.Stderr
	autoChosen           = map[backend.Kind]string{}
)

// SetAutoReport sets where --provider auto says what it picked and why (default stderr).
func SetAutoReport(w io.Writer) {
	autoMu.Lock()
	defer autoMu.Unlock()
	autoOut = w
}

// AutoChoice returns what --provider auto picks for kind and why, without starting anything.
func AutoChoice(kind backend.Kind) (provider, reason string, err error) { return autoChoose(kind) }

// report prints a provider choice once per kind and message.
func report(kind backend.Kind, msg string) {
	autoMu.Lock()
	defer autoMu.Unlock()
	if autoChosen[kind] != msg {
		autoChosen[kind] = msg
		fmt.Fprintln(autoOut, msg)
	}
}

// AutoChoiceFunc is a store's own rule for --provider auto: the family to run kind with
// and why, or an error naming what to install.
type AutoChoiceFunc func() (family, reason string, err error)

var autoRules = map[backend.Kind]AutoChoiceFunc{}

// RegisterAutoChoice gives kind its own --provider auto rule: a store whose servers
// run only as processes of its own says here when it can run.
func RegisterAutoChoice(kind backend.Kind, rule AutoChoiceFunc) {
	defaultsMu.Lock()
	defer defaultsMu.Unlock()
	autoRules[kind] = rule
}

// autoChoose asks the kind's own rule; a kind without one prefers processes when its
// store's server is installed, then containers when an engine answers, then the
// embedded servers.
func autoChoose(kind backend.Kind) (string, string, error) {
	defaultsMu.RLock()
	rule := autoRules[kind]
	defaultsMu.RUnlock()
	if rule != nil {
		return rule()
	}
	shape, err := linked.Catalog().Lookup(kind)
	if err != nil {
		return "", "", err
	}
	server := shape.Server()
	bin, missing := server.Find()
	if missing == nil {
		return "process", server.Name + " is installed at " + bin, nil
	}
	if p, gerr := providers.Get("container"); gerr == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		a, ok := p.(Available)
		if !ok {
			return "container", server.Name + " is not installed", nil
		}
		aerr := a.Available(ctx)
		if aerr == nil {
			return "container", server.Name + " is not installed; a container engine answers", nil
		}
		missing = fmt.Errorf("%v; %v", missing, aerr)
	}
	if _, gerr := providers.Get("embedded"); gerr == nil {
		return "embedded", fmt.Sprintf("no real server: %v", missing), nil
	}
	return "", "", fmt.Errorf("provider auto: nothing can serve %s topologies: %v", kind, missing)
}

// DefaultProvider returns the provider that serves kind unless told otherwise.
func DefaultProvider(kind backend.Kind) (Provider, error) {
	defaultsMu.RLock()
	name, ok := defaultProviderOf[kind]
	defaultsMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("no provider serves topology kind %q (is its package imported?)", kind)
	}
	return ProviderNamed(name)
}
