// Package topologies is what every deployment shares: the Topology and Node a provider
// starts, the providers by name and family, ports, temp dirs and the reaper. The stores'
// own providers live in their folders (backends/<store>/...). It knows nothing of locks:
// strategies receive addresses, faults act through Node handles.
package topologies

import (
	"context"
	"fmt"
	"os"

	"github.com/lockbench/lockbench/backend"
)

// The kinds that code below the stores' folders names: the Redis deployments the
// Redis-protocol scenarios break, and PostgreSQL, where updates keep their rows. Their
// descriptors live in backends/; every other store's kind is its own package's Kind.
const (
	Single     backend.Kind = "single"     // one master
	Replicated backend.Kind = "replicated" // one master, R replicas
	Sentinel   backend.Kind = "sentinel"   // one master, replicas, sentinels watching them
	Redlock    backend.Kind = "redlock"    // N independent masters
	Postgres   backend.Kind = "postgres"   // one PostgreSQL server (its process provider: backends/postgres/pgtopo)
)

// Role is what a node does in its deployment at start.
type Role string

const (
	RoleMaster   Role = "master"
	RoleReplica  Role = "replica"
	RoleSentinel Role = "sentinel"
	RoleMember   Role = "member" // an etcd or ZooKeeper member: who leads is the servers' business
)

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
	// RestartAfterHostCrash kills the node as a power loss would: its disk forgets every
	// write not fsynced (needs Spec.ForgetfulDisk), and it starts on what remains.
	RestartAfterHostCrash
)

func (m RestartMode) String() string {
	switch m {
	case RestartEmpty:
		return "empty"
	case RestartFromDisk:
		return "from-disk"
	case RestartWithSnapshot:
		return "with-snapshot"
	case RestartAfterHostCrash:
		return "after-host-crash"
	}
	return fmt.Sprintf("RestartMode(%d)", int(m))
}

// Topology is a running deployment.
type Topology interface {
	Spec() backend.Spec
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
	Start(ctx context.Context, spec backend.Spec) (Topology, error)
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
