package external

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sort"
	"sync"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
)

// Store is what a store's own folder tells this provider: the kinds it serves, the
// deployment file's keys it reads, how those keys lay out a strategy's servers, and the
// read-only probe and the cleanup it runs on them. Neither may change anything outside
// the run's key prefix.
type Store struct {
	Kinds []backend.Kind
	Roles []RoleKey
	// Layout checks that d has what strategy (on spec) needs, in the size the strategy
	// is named for, and returns its servers; it reads no secret.
	Layout func(d *Deployment, strategy string, spec backend.Spec) (Layout, error)
	// Probe proves every server answers and reads its version. It may replace s's
	// servers with those it found (the master the sentinels name now).
	Probe func(ctx context.Context, s *Servers) ([]resultsdir.ExternalServer, error)
	// Cleanup deletes every key under prefix and says how many it deleted.
	Cleanup func(ctx context.Context, s Servers, prefix string) (int64, error)
}

// RoleKey is one top-level key of the deployment file a store reads.
type RoleKey struct {
	Key string
	// New returns a fresh pointer for the key's YAML to be decoded into.
	New func() RoleValue
	// Shared marks a key that names no server, only what the store's other roles share
	// (a user): a file that gives shared keys alone names no role.
	Shared bool
}

// RoleValue is a role as the file gives it; it names the users it logs in as, so that
// their secrets are checked, read and kept out of every output whoever the store is.
type RoleValue interface {
	Auths() []*Auth
}

// Layout is what a deployment file gives one strategy: its servers, the spec fields the
// file fixes (Replicas, Sentinels, MasterName, Masters, Members) and the users of the
// data servers and of the sentinels.
type Layout struct {
	Spec                         backend.Spec
	Masters, Replicas, Sentinels []topologies.Node
	Auth, SentinelAuth           *Auth
}

// Servers are a strategy's servers as the file names them, with the users and TLS to
// reach them; a store of members (etcd) has them in Masters.
type Servers struct {
	Spec                         backend.Spec
	Masters, Replicas, Sentinels []topologies.Node
	Access, SentinelAccess       redisconn.Access
}

// Nodes are every server: masters, replicas, sentinels.
func (s Servers) Nodes() []topologies.Node {
	out := append(append([]topologies.Node{}, s.Masters...), s.Replicas...)
	return append(out, s.Sentinels...)
}

// MissingRole is the error of a file that lacks what strategy needs: role (its key and
// field) and what it is.
func MissingRole(strategy, role, what string) error {
	return fmt.Errorf("deployment file: strategy %s needs role %s (%s), which the file lacks", strategy, role, what)
}

var (
	storesMu sync.Mutex
	stores   []Store
)

// RegisterStore lets the provider serve s.Kinds from the file's s.Roles, from the init
// of the store's package. A kind or key registered twice is a programming error.
func RegisterStore(s Store) {
	storesMu.Lock()
	defer storesMu.Unlock()
	if len(s.Kinds) == 0 || len(s.Roles) == 0 || s.Layout == nil || s.Probe == nil || s.Cleanup == nil {
		panic(fmt.Sprintf("external: store %v (keys %v) lacks kinds, roles, Layout, Probe or Cleanup", s.Kinds, keysOf(s)))
	}
	for _, r := range s.Roles {
		checkRoleKey(r)
	}
	for _, o := range stores {
		for _, k := range s.Kinds {
			if o.serves(k) {
				panic(fmt.Sprintf("external: kind %s registered twice", k))
			}
		}
		for _, r := range s.Roles {
			if _, dup := o.role(r.Key); dup {
				panic(fmt.Sprintf("external: file key %s registered twice", r.Key))
			}
		}
	}
	stores = append(stores, s)
}

// checkRoleKey panics unless r's value can be told absent (a nil pointer) from given.
func checkRoleKey(r RoleKey) {
	if r.Key == "" || r.Key == "tls" || r.New == nil {
		panic(fmt.Sprintf("external: file key %q: want a name other than tls, and New", r.Key))
	}
	if v := reflect.ValueOf(r.New()); v.Kind() != reflect.Pointer || v.IsNil() {
		panic(fmt.Sprintf("external: file key %s: New must return a non-nil pointer", r.Key))
	}
}

func keysOf(s Store) []string {
	var keys []string
	for _, r := range s.Roles {
		keys = append(keys, r.Key)
	}
	return keys
}

func (s Store) serves(kind backend.Kind) bool {
	for _, k := range s.Kinds {
		if k == kind {
			return true
		}
	}
	return false
}

func (s Store) role(key string) (RoleKey, bool) {
	for _, r := range s.Roles {
		if r.Key == key {
			return r, true
		}
	}
	return RoleKey{}, false
}

func storeFor(kind backend.Kind) (Store, bool) {
	for _, s := range sortedStores() {
		if s.serves(kind) {
			return s, true
		}
	}
	return Store{}, false
}

// sortedStores lists the stores as the backend registry ranks their first kind (Redis's
// before etcd's), the unregistered after them, then by first key: every message that
// lists keys or kinds reads the same from run to run.
func sortedStores() []Store {
	storesMu.Lock()
	out := append([]Store{}, stores...)
	storesMu.Unlock()
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := rank(out[i]), rank(out[j])
		if ri != rj {
			return ri < rj
		}
		return out[i].Roles[0].Key < out[j].Roles[0].Key
	})
	return out
}

// rank is the backend registry's rank of s's first kind, or last when none registered it.
func rank(s Store) int {
	sh, err := linked.Catalog().Lookup(s.Kinds[0])
	if err != nil {
		return math.MaxInt
	}
	return sh.Rank
}

// roleKeys are every registered key, the server-naming ones first, then the shared ones.
func roleKeys() []RoleKey {
	var named, shared []RoleKey
	for _, s := range sortedStores() {
		for _, r := range s.Roles {
			if r.Shared {
				shared = append(shared, r)
			} else {
				named = append(named, r)
			}
		}
	}
	return append(named, shared...)
}

// storeKinds are the registered stores' kinds, in the stores' order.
func storeKinds() []backend.Kind {
	var kinds []backend.Kind
	for _, s := range sortedStores() {
		kinds = append(kinds, s.Kinds...)
	}
	return kinds
}
