// Package registry is the one shape of every by-name registry in lockbench (scenarios,
// faults, providers, store adapters): register once from an init function, look up
// with an error that lists what exists, list sorted.
package registry

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Registry maps names to things of one kind; what names the kind ("scenario") in
// its messages. The zero value is not usable: use New.
type Registry[T any] struct {
	what   string
	mu     sync.RWMutex
	byName map[string]T
}

// New returns an empty registry of things called what.
func New[T any](what string) *Registry[T] {
	return &Registry[T]{what: what, byName: map[string]T{}}
}

// Add registers x as name; a duplicate is a programming error and panics.
func (r *Registry[T]) Add(name string, x T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byName[name]; dup {
		panic(fmt.Sprintf("%s registered twice: %s", r.what, name))
	}
	r.byName[name] = x
}

// Get returns what name was registered as, or an error naming every known name.
func (r *Registry[T]) Get(name string) (T, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	x, ok := r.byName[name]
	if !ok {
		var zero T
		return zero, fmt.Errorf("unknown %s %q: want one of %s", r.what, name, strings.Join(r.namesLocked(), ", "))
	}
	return x, nil
}

// Names lists the registered names, sorted.
func (r *Registry[T]) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.namesLocked()
}

func (r *Registry[T]) namesLocked() []string {
	names := make([]string, 0, len(r.byName))
	for n := range r.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
