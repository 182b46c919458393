package external

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
)

// MembersRole is a store's part of the deployment file when that store is a group of
// members clients may dial any of (etcd): its client endpoints and the user to log in
// as. The file gives it under the key its store registered.
type MembersRole struct {
	Endpoints []string `yaml:"endpoints"`
	Auth      *Auth    `yaml:"auth,omitempty"`
}

// Store is what a store's own folder tells this provider about its members: the file's
// key, and the read-only probe and the cleanup it runs on them. Neither may change
// anything outside the run's key prefix.
type Store struct {
	Kind topologies.Kind
	Key  string // the deployment file's key, e.g. "etcd"
	// Probe proves every member answers and reads its version.
	Probe func(ctx context.Context, s Servers) ([]resultsdir.ExternalServer, error)
	// Cleanup deletes every key under prefix and says how many it deleted.
	Cleanup func(ctx context.Context, s Servers, prefix string) (int64, error)
}

// Servers are a store's members as the file names them, with the user and TLS to reach
// them.
type Servers struct {
	Members []topologies.Node
	Access  topologies.Access
}

var (
	storesMu sync.Mutex
	stores   = map[topologies.Kind]Store{}
)

// RegisterStore lets the provider serve s.Kind from the file's s.Key, from the init of
// the store's package. A kind or key registered twice is a programming error.
func RegisterStore(s Store) {
	storesMu.Lock()
	defer storesMu.Unlock()
	for _, o := range stores {
		if o.Kind == s.Kind || o.Key == s.Key {
			panic(fmt.Sprintf("external: store %s (key %s) registered twice", s.Kind, s.Key))
		}
	}
	stores[s.Kind] = s
}

func storeFor(kind topologies.Kind) (Store, bool) {
	storesMu.Lock()
	defer storesMu.Unlock()
	s, ok := stores[kind]
	return s, ok
}

func storeKeyed(key string) (Store, bool) {
	storesMu.Lock()
	defer storesMu.Unlock()
	for _, s := range stores {
		if s.Key == key {
			return s, true
		}
	}
	return Store{}, false
}

// storeKeys are the registered stores' file keys, sorted.
func storeKeys() []string {
	storesMu.Lock()
	defer storesMu.Unlock()
	var keys []string
	for _, s := range stores {
		keys = append(keys, s.Key)
	}
	sort.Strings(keys)
	return keys
}

// storeKinds are the registered stores' kinds, in the order of their keys.
func storeKinds() []topologies.Kind {
	var kinds []topologies.Kind
	for _, k := range storeKeys() {
		s, _ := storeKeyed(k)
		kinds = append(kinds, s.Kind)
	}
	return kinds
}
