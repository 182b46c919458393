// Package redis describes Redis's deployments: one master, a replicated master, a master
// watched by sentinels, and Redlock's independent masters. redisstore registers them
// with the rest of the store.
package redis

import (
	"fmt"
	"regexp"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/internal/version"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// Server is what every Redis deployment runs on here (a cluster's too).
var Server = backend.Requirement{Name: "redis-server", Install: "apt-get install redis-server",
	Find: redisadmin.FindRedisServer, Version: serverVersion}

// Redis's scaling axes: Redlock's masters, and the replicas behind a WAIT (redislock
// declares the sizes on them).
const (
	RedlockNodesAxis = "scaling-redlock-nodes"
	WaitReplicasAxis = "scaling-wait-replicas"
)

// oneMaster is what a lone Redis master can do: number grants by INCR, answer Redis.
type oneMaster struct{}

func (oneMaster) CounterFence() string          { return "INCR fence:<key> on the master" }
func (oneMaster) RedisMasters(backend.Spec) int { return 1 }

// replicatedMaster is a master whose replicas copy it asynchronously.
type replicatedMaster struct{ oneMaster }

func (replicatedMaster) Replicas(s backend.Spec) int { return s.Replicas }

// watchedMaster is a replicated master whose sentinels promote a replica.
type watchedMaster struct{ replicatedMaster }

func (watchedMaster) Sentinels(s backend.Spec) int { return s.Sentinels }

// independentMasters are Redlock's: a majority of them grants a lock.
type independentMasters struct{}

func (independentMasters) RedisMasters(s backend.Spec) int { return s.Masters }
func (independentMasters) Majority(s backend.Spec) int     { return s.Masters/2 + 1 }

// Descriptor is Redis's: its four kinds (topologies names them: the house runs Redis
// itself) and its two scaling axes; its strategies are redislock's.
var Descriptor = backend.Descriptor{Store: "redis", Server: Server, Flavours: backend.ServerFlavours(),
	Shapes: []backend.Shape{
		{Kind: topologies.Single, Rank: 10, Can: oneMaster{},
			Validate: func(s backend.Spec) error { return validate(s, nil) }},
		{Kind: topologies.Replicated, Rank: 20, Can: replicatedMaster{},
			Defaults: defaultReplicas, Validate: func(s backend.Spec) error { return validate(s, atLeastOneReplica) }},
		{Kind: topologies.Sentinel, Rank: 30, Can: watchedMaster{},
			Defaults: func(s backend.Spec) backend.Spec { return sentinelDefaults(defaultReplicas(s)) },
			Validate: func(s backend.Spec) error { return validate(s, nil, validateSentinels) }},
		{Kind: topologies.Redlock, Rank: 40, Can: independentMasters{},
			Defaults: redlockDefaults, Validate: validateRedlock},
	},
	Axes: []backend.ScalingAxis{
		{Preset: RedlockNodesAxis, Title: "p99 acquire latency against Redlock nodes", XLabel: "Redlock nodes (masters)"},
		{Preset: WaitReplicasAxis, Title: "p99 acquire latency against WAIT replicas", XLabel: "replicas behind the master"},
	}}

func defaultReplicas(s backend.Spec) backend.Spec {
	if s.Replicas == 0 {
		s.Replicas = 2
	}
	return s
}

func sentinelDefaults(s backend.Spec) backend.Spec {
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
	return s
}

func redlockDefaults(s backend.Spec) backend.Spec {
	if s.Masters == 0 {
		s.Masters = 5
	}
	return s
}

// noMembers refuses the fields only the consensus and SQL stores have.
func noMembers(s backend.Spec) error {
	if s.Members != 0 || s.UnsafeNoFsync {
		return fmt.Errorf("members = %d, unsafe-no-fsync = %v: only etcd and zookeeper topologies have members, only etcd, "+
			"postgres and zookeeper have unsafe-no-fsync", s.Members, s.UnsafeNoFsync)
	}
	return nil
}

func atLeastOneReplica(s backend.Spec) error {
	if s.Replicas < 1 {
		return fmt.Errorf("replicas = %d: a replicated topology needs at least 1", s.Replicas)
	}
	return nil
}

// validate checks a one-master kind: its fields, then after the master count the kind's own (more).
func validate(s backend.Spec, replicas func(backend.Spec) error, more ...func(backend.Spec) error) error {
	checks := []func(backend.Spec) error{noMembers, backend.CheckReplicas}
	if replicas != nil {
		checks = append(checks, replicas)
	}
	checks = append(checks, backend.CheckOneMaster)
	for _, check := range append(checks, more...) {
		if err := check(s); err != nil {
			return err
		}
	}
	return nil
}

func validateSentinels(s backend.Spec) error {
	if s.Sentinels < 1 {
		return fmt.Errorf("sentinels = %d: must be >= 1", s.Sentinels)
	}
	if s.SentinelQuorum < 1 || s.SentinelQuorum > s.Sentinels {
		return fmt.Errorf("sentinel quorum = %d: must be between 1 and sentinels (%d)", s.SentinelQuorum, s.Sentinels)
	}
	if s.DownAfter <= 0 || s.FailoverTimeout <= 0 {
		return fmt.Errorf("sentinel down-after (%v) and failover-timeout (%v) must be > 0", s.DownAfter, s.FailoverTimeout)
	}
	return nil
}

func validateRedlock(s backend.Spec) error {
	if err := noMembers(s); err != nil {
		return err
	}
	if err := backend.CheckReplicas(s); err != nil {
		return err
	}
	if s.Masters < 1 {
		return fmt.Errorf("redlock masters N = %d: must be >= 1", s.Masters)
	}
	if s.Masters != 3 && s.Masters != 5 && s.Masters != 7 {
		return fmt.Errorf("redlock masters N = %d: must be 3, 5 or 7 (odd, so a majority is unique)", s.Masters)
	}
	return nil
}

var versionLine = version.Match(regexp.MustCompile(`\bv=(\S+)`))

// serverVersion asks the redis-server the process provider would run.
func serverVersion() string {
	bin, err := redisadmin.FindRedisServer()
	if err != nil {
		return ""
	}
	return version.Of(bin, "--version", versionLine)
}
