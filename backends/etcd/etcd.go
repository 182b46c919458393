// Package etcd describes etcd's deployment: a Raft cluster of Members members, the
// consensus baseline. etcdstore registers it with the rest of the store.
package etcd

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd/etcdtopo/memberfile"
	"github.com/lockbench/lockbench/internal/reexec"
	"github.com/lockbench/lockbench/internal/version"
)

// Kind is the etcd cluster.
const Kind backend.Kind = "etcd"

// Both etcd providers run the etcd server linked into the program members run as.
const serverModule = "go.etcd.io/etcd/server/v3"

// memberServer is the program etcd's members run as (lockbench, or a program that links
// etcdrun) and the version of etcd's server it links.
func memberServer() (exe, v string, err error) {
	if exe, err = reexec.ExecutableFor(memberfile.Role); err != nil {
		return "", "", err
	}
	v, err = version.LinkedInto(exe, serverModule)
	return exe, v, err
}

// Descriptor is etcd's: a cluster of 1, 3 or 5 members (its strategies are etcdlock's).
var Descriptor = backend.Descriptor{Store: "etcd",
	Server: backend.Requirement{Name: "etcd (built into this program)",
		Find: func() (string, error) {
			exe, _, err := memberServer()
			return exe, err
		},
		Version: func() string {
			_, v, _ := memberServer()
			return v
		},
	},
	Shapes: []backend.Shape{{
		Kind: Kind, Rank: 50,
		Can:       backend.ConsensusGroup{Fence: "the lock key's create revision (raft-ordered)"},
		Defaults:  backend.OneMember,
		Validate:  validate,
		NoNetwork: "cannot run under a network profile (etcd's gRPC client does not dial through lockbench's proxies)",
		// Leases are whole seconds, and no shorter than about 1.5 election timeouts of
		// the providers' members.
		Lease: backend.Lease{Step: time.Second, Min: 2 * time.Second},
	}}}

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
