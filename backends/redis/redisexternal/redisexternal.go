// Package redisexternal is Redis's part of the external provider's deployment file: the
// roles single, replicated, sentinel and redlock, the top-level auth of the masters and
// replicas, what each strategy needs of them, the read-only version probe and the
// cleanup of the run's keys on servers lockbench does not own.
package redisexternal

import (
	"fmt"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/external"
)

// The deployment file's keys Redis reads.
const (
	keySingle     = "single"
	keyReplicated = "replicated"
	keySentinel   = "sentinel"
	keyRedlock    = "redlock"
	keyAuth       = "auth"
)

// Store is Redis's part of the deployment file.
var Store = external.Store{
	Kinds: []backend.Kind{topologies.Single, topologies.Replicated, topologies.Sentinel, topologies.Redlock},
	Roles: []external.RoleKey{
		{Key: keySingle, New: func() external.RoleValue { return new(SingleRole) }},
		{Key: keyReplicated, New: func() external.RoleValue { return new(ReplicatedRole) }},
		{Key: keySentinel, New: func() external.RoleValue { return new(SentinelRole) }},
		{Key: keyRedlock, New: func() external.RoleValue { return new(RedlockRole) }},
		// The masters' and replicas' ACL user, shared by the four roles.
		{Key: keyAuth, New: func() external.RoleValue { return new(external.Auth) }, Shared: true},
	},
	Layout:  layout,
	Probe:   probe,
	Cleanup: cleanup,
}

// SingleRole is one master (strategy single).
type SingleRole struct {
	Master string `yaml:"master"`
}

// ReplicatedRole is a master and its replicas (strategy wait).
type ReplicatedRole struct {
	Master   string   `yaml:"master"`
	Replicas []string `yaml:"replicas"`
}

// SentinelRole is the sentinels watching a master (strategy sentinel).
type SentinelRole struct {
	Sentinels  []string `yaml:"sentinels"`
	MasterName string   `yaml:"master_name"`
	// Auth is the sentinels' own ACL user; none when they ask for no password.
	Auth *external.Auth `yaml:"auth,omitempty"`
}

// RedlockRole is the N independent masters (strategies redlock, redlock-failfast).
type RedlockRole struct {
	Masters []string `yaml:"masters"`
}

// The servers' user is the top-level auth; only the sentinels name their own.
func (*SingleRole) Auths() []*external.Auth     { return nil }
func (*ReplicatedRole) Auths() []*external.Auth { return nil }
func (s *SentinelRole) Auths() []*external.Auth { return []*external.Auth{s.Auth} }
func (*RedlockRole) Auths() []*external.Auth    { return nil }

// layout checks the file has the role spec's kind needs, in the strategy's size, and
// lays out its servers with the top-level auth as the data servers' user.
func layout(d *external.Deployment, strategy string, spec backend.Spec) (external.Layout, error) {
	var l external.Layout
	var err error
	switch spec.Kind {
	case topologies.Single:
		l, err = singleLayout(external.RoleOf[*SingleRole](d, keySingle), strategy)
	case topologies.Replicated:
		l, err = replicatedLayout(external.RoleOf[*ReplicatedRole](d, keyReplicated), strategy, spec)
	case topologies.Sentinel:
		l, err = sentinelLayout(external.RoleOf[*SentinelRole](d, keySentinel), strategy)
	case topologies.Redlock:
		l, err = redlockLayout(external.RoleOf[*RedlockRole](d, keyRedlock), strategy, spec)
	default:
		return l, fmt.Errorf("redisexternal: kind %s is not Redis's", spec.Kind)
	}
	l.Auth = external.RoleOf[*external.Auth](d, keyAuth)
	return l, err
}

func masters(addrs ...string) []topologies.Node {
	return external.NewNodes(topologies.RoleMaster, "master", addrs)
}

func singleLayout(r *SingleRole, strategy string) (external.Layout, error) {
	if r == nil || r.Master == "" {
		return external.Layout{}, external.MissingRole(strategy, "single.master", "the one master")
	}
	return external.Layout{Masters: masters(r.Master)}, nil
}

func replicatedLayout(r *ReplicatedRole, strategy string, spec backend.Spec) (external.Layout, error) {
	if r == nil || r.Master == "" {
		return external.Layout{}, external.MissingRole(strategy, "replicated.master", "the master WAIT runs on")
	}
	if len(r.Replicas) == 0 {
		return external.Layout{}, external.MissingRole(strategy, "replicated.replicas", "the replicas WAIT counts")
	}
	if len(r.Replicas) < spec.Replicas {
		return external.Layout{}, fmt.Errorf("deployment file: strategy %s needs %d replicas, replicated.replicas lists "+
			"%d", strategy, spec.Replicas, len(r.Replicas))
	}
	replicas := external.NewNodes(topologies.RoleReplica, "replica", r.Replicas)
	return external.Layout{Masters: masters(r.Master), Replicas: replicas,
		Spec: backend.Spec{Replicas: len(replicas)}}, nil
}

// sentinelLayout gives the sentinels alone: the probe asks them which server is master.
func sentinelLayout(r *SentinelRole, strategy string) (external.Layout, error) {
	if r == nil || len(r.Sentinels) == 0 {
		return external.Layout{}, external.MissingRole(strategy, "sentinel.sentinels", "the sentinels' addresses")
	}
	if r.MasterName == "" {
		return external.Layout{}, external.MissingRole(strategy, "sentinel.master_name", "the name the sentinels monitor")
	}
	sentinels := external.NewNodes(topologies.RoleSentinel, "sentinel", r.Sentinels)
	return external.Layout{Sentinels: sentinels, SentinelAuth: r.Auth,
		Spec: backend.Spec{Sentinels: len(sentinels), MasterName: r.MasterName}}, nil
}

func redlockLayout(r *RedlockRole, strategy string, spec backend.Spec) (external.Layout, error) {
	if r == nil || len(r.Masters) == 0 {
		return external.Layout{}, external.MissingRole(strategy, "redlock.masters", "the N independent masters")
	}
	if spec.Masters != 0 && spec.Masters != len(r.Masters) {
		return external.Layout{}, fmt.Errorf("deployment file: strategy %s runs on %d masters, redlock.masters lists %d",
			strategy, spec.Masters, len(r.Masters))
	}
	if len(r.Masters)%2 == 0 {
		return external.Layout{}, fmt.Errorf("deployment file: strategy %s: redlock.masters has %d addresses; want an odd "+
			"number, so that a majority is unique", strategy, len(r.Masters))
	}
	return external.Layout{Masters: masters(r.Masters...), Spec: backend.Spec{Masters: len(r.Masters)}}, nil
}
