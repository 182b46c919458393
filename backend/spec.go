package backend

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/lockbench/lockbench/clocks"
)

// Kind names a deployment shape; the stores under backends/ declare theirs.
type Kind string

// Spec describes a deployment to start. Zero fields take the defaults from WithDefaults.
type Spec struct {
	Kind Kind
	// Replicas per master for Replicated and Sentinel (default 2).
	Replicas int
	// Masters for Redlock: 3, 5 (default) or 7.
	Masters int
	// Sentinels for Sentinel (default 3) and their quorum (default 2).
	Sentinels      int
	SentinelQuorum int
	// DownAfter and FailoverTimeout configure sentinels; small defaults keep tests quick.
	DownAfter       time.Duration
	FailoverTimeout time.Duration
	// AppendFsync turns on the append-only file with this policy ("always", "everysec");
	// empty means no persistence at all.
	AppendFsync string
	// Server is the flavour of a Redis-protocol kind's servers: "redis" (the default,
	// when empty) or "valkey" (ServerFlavours).
	Server string
	// MasterName is the name sentinels monitor (default "lockbench").
	MasterName string
	// ExtraConfig lines are appended to every redis-server config (not sentinels), or
	// for Postgres to postgresql.conf.
	ExtraConfig []string
	// Clocks skews the named nodes' clocks ("master-2": rate 1.02, say); nodes not named
	// keep true time. Kept in the Spec, so a topology records who was skewed and how.
	Clocks map[string]clocks.Model
	// Members of an Etcd cluster or a ZooKeeper ensemble: 1 (default), 3 or 5.
	Members int
	// UnsafeNoFsync runs etcd, PostgreSQL or ZooKeeper without fsync: a lower bound on its cost,
	// NOT a safe deployment (an acknowledged write can vanish on a crash).
	UnsafeNoFsync bool
	// ForgetfulDisk puts each node's data on a file system that keeps only what was
	// fsynced across a host crash (crashfs), so that RestartAfterHostCrash can lose it.
	ForgetfulDisk bool
}

// WithDefaults returns s with every zero field set to its default: the kind's own
// first (its descriptor's Defaults in c), then those every kind shares.
func (s Spec) WithDefaults(c *Catalog) Spec {
	if sh, err := c.Lookup(s.Kind); err == nil && sh.Defaults != nil {
		s = sh.Defaults(s)
	}
	if s.Masters == 0 {
		s.Masters = 1
	}
	if s.MasterName == "" {
		s.MasterName = "lockbench"
	}
	return s
}

// Validate reports the first field of s (after defaults) that no provider could start:
// the kind's own checks (its descriptor's Validate in c), then its clocks, server flavour
// and appendfsync.
func (s Spec) Validate(c *Catalog) error {
	sh, err := c.Lookup(s.Kind)
	if err != nil {
		return err
	}
	if sh.Validate != nil {
		if err := sh.Validate(s); err != nil {
			return err
		}
	}
	if err := s.validateClocks(c); err != nil {
		return err
	}
	if err := s.checkServer(c); err != nil {
		return err
	}
	switch s.AppendFsync {
	case "", "always", "everysec", "no":
	default:
		return fmt.Errorf("appendfsync %q: want always, everysec, no or empty (no persistence)", s.AppendFsync)
	}
	return nil
}

// CheckReplicas refuses a negative replica count (a check most kinds share).
func CheckReplicas(s Spec) error {
	if s.Replicas < 0 {
		return fmt.Errorf("replicas = %d: must be >= 0", s.Replicas)
	}
	return nil
}

// CheckAlwaysPersists refuses an appendfsync policy, for kinds whose server persists
// every write and turns fsync off only by UnsafeNoFsync.
func CheckAlwaysPersists(s Spec) error {
	if s.AppendFsync != "" {
		return fmt.Errorf("appendfsync %q: %s always persists; use UnsafeNoFsync to turn fsync off", s.AppendFsync, s.Kind)
	}
	return nil
}

// OneMember is the Defaults of a consensus kind: one member unless told.
func OneMember(s Spec) Spec {
	if s.Members == 0 {
		s.Members = 1
	}
	return s
}

// CheckOneMaster refuses more than one master, for kinds that have one.
func CheckOneMaster(s Spec) error {
	if s.Masters != 1 {
		return fmt.Errorf("masters = %d: only a redlock topology has more than one", s.Masters)
	}
	return nil
}

// NodeNames lists the names of the nodes s starts (after defaults), in start order:
// masters, then replicas where the kind replicates, then sentinels where it fails over
// (as its kind in c declares).
func (s Spec) NodeNames(c *Catalog) []string {
	var names []string
	add := func(prefix string, count int) {
		for i := 0; i < count; i++ {
			names = append(names, fmt.Sprintf("%s-%d", prefix, i))
		}
	}
	add("master", s.Masters)
	if r, ok := CanOf[Replication](c, s.Kind); ok {
		add("replica", r.Replicas(s))
	}
	if f, ok := CanOf[Failover](c, s.Kind); ok {
		add("sentinel", f.Sentinels(s))
	}
	return names
}

// validateClocks checks that every skewed node exists and its model can be applied.
func (s Spec) validateClocks(c *Catalog) error {
	if len(s.Clocks) == 0 {
		return nil
	}
	known := map[string]bool{}
	for _, n := range s.NodeNames(c) {
		known[n] = true
	}
	names := make([]string, 0, len(s.Clocks))
	for n := range s.Clocks {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !known[n] {
			return fmt.Errorf("clocks: no node %q in this topology (nodes: %s)", n, strings.Join(s.NodeNames(c), ", "))
		}
		if err := s.Clocks[n].Validate(); err != nil {
			return fmt.Errorf("clocks: node %s: %w", n, err)
		}
	}
	return nil
}

// ClockSummary describes the skewed nodes, e.g. "master-0: rate=1.02; master-3: jump=+100ms@grant+0s".
func (s Spec) ClockSummary() string {
	names := make([]string, 0, len(s.Clocks))
	for n := range s.Clocks {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ": " + s.Clocks[n].String()
	}
	if len(parts) == 0 {
		return "all true"
	}
	return strings.Join(parts, "; ")
}
