// Package topologies starts, inspects, breaks and stops Redis deployments.
// It knows nothing of locks: strategies receive addresses, faults act through Node handles.
package topologies

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/lockbench/lockbench/clocks"
)

// Kind names a deployment shape.
type Kind string

const (
	Single     Kind = "single"     // one master
	Replicated Kind = "replicated" // one master, R replicas
	Sentinel   Kind = "sentinel"   // one master, replicas, sentinels watching them
	Redlock    Kind = "redlock"    // N independent masters
	Etcd       Kind = "etcd"       // a consensus cluster of Members members (the baseline)
	Postgres   Kind = "postgres"   // one PostgreSQL server (import topologies/pgtopo)
	ZooKeeper  Kind = "zookeeper"  // a ZooKeeper ensemble of Members servers (import topologies/zktopo)
)

// Role is what a node does in its deployment at start.
type Role string

const (
	RoleMaster   Role = "master"
	RoleReplica  Role = "replica"
	RoleSentinel Role = "sentinel"
	RoleMember   Role = "member" // an etcd or ZooKeeper member: who leads is the servers' business
)

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
}

// WithDefaults returns s with every zero field set to its default.
func (s Spec) WithDefaults() Spec {
	if s.Replicas == 0 && (s.Kind == Replicated || s.Kind == Sentinel) {
		s.Replicas = 2
	}
	if s.Masters == 0 {
		s.Masters = 1
		if s.Kind == Redlock {
			s.Masters = 5
		}
	}
	if s.Kind == Sentinel {
		if s.Sentinels == 0 {
			s.Sentinels = 3
		}
		if s.SentinelQuorum == 0 {
			s.SentinelQuorum = s.Sentinels/2 + 1
		}
		if s.DownAfter == 0 {
			s.DownAfter = 1000 * time.Millisecond
		}
		if s.FailoverTimeout == 0 {
			s.FailoverTimeout = 3000 * time.Millisecond
		}
	}
	if s.MasterName == "" {
		s.MasterName = "lockbench"
	}
	if (s.Kind == Etcd || s.Kind == ZooKeeper) && s.Members == 0 {
		s.Members = 1
	}
	return s
}

// Validate reports the first field of s (after defaults) that no provider could start.
func (s Spec) Validate() error {
	switch s.Kind {
	case Single, Replicated, Sentinel, Redlock, Etcd, Postgres, ZooKeeper:
	default:
		return fmt.Errorf("topology kind %q: want one of single, replicated, sentinel, redlock, etcd, postgres, zookeeper", s.Kind)
	}
	switch s.Kind {
	case Etcd:
		if s.Members != 1 && s.Members != 3 && s.Members != 5 {
			return fmt.Errorf("etcd members = %d: must be 1, 3 or 5", s.Members)
		}
	case ZooKeeper:
		if s.Members != 1 && s.Members != 3 && s.Members != 5 {
			return fmt.Errorf("zookeeper ensemble size (members) = %d: must be odd, 1, 3 or 5 (an even ensemble tolerates no more failures than the odd one below it)", s.Members)
		}
		if s.Replicas != 0 || len(s.Clocks) > 0 {
			return fmt.Errorf("replicas = %d, clocks = %d: a zookeeper ensemble has members only and runs on true time", s.Replicas, len(s.Clocks))
		}
	case Postgres:
		if s.Members != 0 || s.Replicas != 0 {
			return fmt.Errorf("members = %d, replicas = %d: a postgres topology is one server", s.Members, s.Replicas)
		}
		if len(s.Clocks) > 0 {
			return fmt.Errorf("clocks: a postgres server cannot run under a clock model")
		}
	default:
		if s.Members != 0 || s.UnsafeNoFsync {
			return fmt.Errorf("members = %d, unsafe-no-fsync = %v: only etcd and zookeeper topologies have members, only etcd, postgres and zookeeper have unsafe-no-fsync", s.Members, s.UnsafeNoFsync)
		}
	}
	if (s.Kind == Etcd || s.Kind == Postgres || s.Kind == ZooKeeper) && s.AppendFsync != "" {
		return fmt.Errorf("appendfsync %q: %s always persists; use UnsafeNoFsync to turn fsync off", s.AppendFsync, s.Kind)
	}
	if s.Replicas < 0 {
		return fmt.Errorf("replicas = %d: must be >= 0", s.Replicas)
	}
	if s.Kind == Replicated && s.Replicas < 1 {
		return fmt.Errorf("replicas = %d: a replicated topology needs at least 1", s.Replicas)
	}
	if s.Kind == Redlock {
		if s.Masters < 1 {
			return fmt.Errorf("redlock masters N = %d: must be >= 1", s.Masters)
		}
		if s.Masters != 3 && s.Masters != 5 && s.Masters != 7 {
			return fmt.Errorf("redlock masters N = %d: must be 3, 5 or 7 (odd, so a majority is unique)", s.Masters)
		}
	} else if s.Masters != 1 {
		return fmt.Errorf("masters = %d: only a redlock topology has more than one", s.Masters)
	}
	if s.Kind == Sentinel {
		if s.Sentinels < 1 {
			return fmt.Errorf("sentinels = %d: must be >= 1", s.Sentinels)
		}
		if s.SentinelQuorum < 1 || s.SentinelQuorum > s.Sentinels {
			return fmt.Errorf("sentinel quorum = %d: must be between 1 and sentinels (%d)", s.SentinelQuorum, s.Sentinels)
		}
		if s.DownAfter <= 0 || s.FailoverTimeout <= 0 {
			return fmt.Errorf("sentinel down-after (%v) and failover-timeout (%v) must be > 0", s.DownAfter, s.FailoverTimeout)
		}
	}
	if err := s.validateClocks(); err != nil {
		return err
	}
	switch s.AppendFsync {
	case "", "always", "everysec", "no":
	default:
		return fmt.Errorf("appendfsync %q: want always, everysec, no or empty (no persistence)", s.AppendFsync)
	}
	return nil
}

// Node is one server of a deployment. Faults act through it.
type Node interface {
	Name() string  // stable within a topology, e.g. "master-0", "replica-1", "sentinel-2"
	Role() Role    // role at start; a failover may change the truth, ask the servers
	Addr() string  // host:port
	Kill() error   // SIGKILL: no goodbye, no save
	Pause() error  // SIGSTOP: the process keeps its sockets but answers nothing
	Resume() error // SIGCONT
	// Restart kills the node if it runs and starts it again on the same address.
	Restart(ctx context.Context, mode RestartMode) error
	Running() bool
}

// RestartMode says what a restarted node remembers.
type RestartMode int

const (
	// RestartEmpty starts with no data at all, as a node whose disk was lost.
	RestartEmpty RestartMode = iota
	// RestartFromDisk starts from whatever persistence wrote (nothing, unless AppendFsync is set).
	RestartFromDisk
	// RestartWithSnapshot saves a snapshot first (if the node answers), then restarts from it.
	RestartWithSnapshot
)

func (m RestartMode) String() string {
	switch m {
	case RestartEmpty:
		return "empty"
	case RestartFromDisk:
		return "from-disk"
	case RestartWithSnapshot:
		return "with-snapshot"
	}
	return fmt.Sprintf("RestartMode(%d)", int(m))
}

// Topology is a running deployment.
type Topology interface {
	Spec() Spec
	Provider() string
	// Masters are the masters at start: one, or N for Redlock.
	Masters() []Node
	Replicas() []Node
	Sentinels() []Node
	// Nodes lists every node: masters, replicas, sentinels.
	Nodes() []Node
	// Close stops every node and removes every file the topology made. Safe to call twice.
	Close() error
}

// Provider starts topologies one way: processes, containers, embedded servers, or none.
type Provider interface {
	Name() string
	Start(ctx context.Context, spec Spec) (Topology, error)
}

// Addrs returns the addresses of nodes, in order.
func Addrs(nodes []Node) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.Addr()
	}
	return out
}

// NewTempDir makes a temp dir for a provider in another package (embedded etcd): named
// and owned so that a SIGKILLed owner's dirs are swept, and removed by the SIGINT/SIGTERM
// reaper. Remove it with RemoveTempDir.
func NewTempDir(name string) (string, error) {
	sweepOrphanedDirs()
	dir, err := os.MkdirTemp("", tempDirPrefix+name+"-")
	if err != nil {
		return "", err
	}
	trackDir(dir)
	if err := writeOwner(dir); err != nil {
		RemoveTempDir(dir)
		return "", err
	}
	return dir, nil
}

// RemoveTempDir removes a dir made by NewTempDir and forgets it.
func RemoveTempDir(dir string) error {
	err := os.RemoveAll(dir)
	untrackDir(dir)
	return err
}
