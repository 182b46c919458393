// Package zookeeper describes ZooKeeper's deployment to the backend registry: an
// ensemble of Members servers (Zab), on true time.
package zookeeper

import (
	"fmt"

	"github.com/lockbench/lockbench/backend"
)

// Kind is the ZooKeeper ensemble.
const Kind backend.Kind = "zookeeper"

func init() {
	backend.Register(backend.Descriptor{Store: "zookeeper", Shapes: []backend.Shape{{
		Kind: Kind, Rank: 70,
		Capabilities: []backend.Capability{backend.Consensus, backend.OwnFence},
		Defaults: func(s backend.Spec) backend.Spec {
			if s.Members == 0 {
				s.Members = 1
			}
			return s
		},
		Validate:  validate,
		NoNetwork: "cannot run under a network profile yet (the profile measures its delay with Redis PINGs)",
	}}})
}

func validate(s backend.Spec) error {
	if s.Members != 1 && s.Members != 3 && s.Members != 5 {
		return fmt.Errorf("zookeeper ensemble size (members) = %d: must be odd, 1, 3 or 5 (an even ensemble tolerates no more failures than the odd one below it)", s.Members)
	}
	if s.Replicas != 0 || len(s.Clocks) > 0 {
		return fmt.Errorf("replicas = %d, clocks = %d: a zookeeper ensemble has members only and runs on true time", s.Replicas, len(s.Clocks))
	}
	if s.AppendFsync != "" {
		return fmt.Errorf("appendfsync %q: %s always persists; use UnsafeNoFsync to turn fsync off", s.AppendFsync, s.Kind)
	}
	return backend.CheckOneMaster(s)
}
