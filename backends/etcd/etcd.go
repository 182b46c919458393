// Package etcd describes etcd's deployment to the backend registry: a Raft cluster of
// Members members, the consensus baseline.
package etcd

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/internal/version"
)

// Kind is the etcd cluster.
const Kind backend.Kind = "etcd"

func init() {
	// Both etcd providers run the etcd server linked into this program.
	const module = "go.etcd.io/etcd/server/v3"
	server := backend.Requirement{Name: "etcd (built into this program)",
		Find: func() (string, error) {
			path, _, err := version.BuiltIn(module)
			return path, err
		},
		Version: func() string { return version.Module(module) },
	}
	linked.Register(backend.Descriptor{Store: "etcd", Server: server, Shapes: []backend.Shape{{
		Kind: Kind, Rank: 50,
		Capabilities: []backend.Capability{backend.Consensus, backend.OwnFence},
		Defaults:     backend.OneMember,
		Validate:     validate,
		NoNetwork:    "cannot run under a network profile (etcd's gRPC client does not dial through lockbench's proxies)",
		Strategies:   strategies,
		// Leases are whole seconds, and no shorter than about 1.5 election timeouts of
		// the providers' members.
		Lease: backend.Lease{Step: time.Second, Min: 2 * time.Second},
	}}})
}

func validate(s backend.Spec) error {
	if s.Members != 1 && s.Members != 3 && s.Members != 5 {
		return fmt.Errorf("etcd members = %d: must be 1, 3 or 5", s.Members)
	}
	if err := backend.CheckAlwaysPersists(s); err != nil {
		return err
	}
	if err := backend.CheckReplicas(s); err != nil {
		return err
	}
	return backend.CheckOneMaster(s)
}
