package external

import (
	"context"
	"sync"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
)

// The test stores stand for the stores that register their part of the file from their
// folders (backends/redis/redisexternal, backends/etcd/etcdexternal), which this
// package's own tests cannot import.

// membersStore is a group of members under one key, as etcd's.
var membersStore = MembersStore("members-test", "members-test", recordVersions, recordCleanup)

// The duo store reads several keys and a shared user, as Redis's: duo-left names the
// masters, duo-right the sentinels with their own user, duo-auth the masters' user.
const (
	duoOne  backend.Kind = "duo-one"  // the masters alone
	duoWith backend.Kind = "duo-with" // the masters, and the sentinels who name the master now
)

type duoLeft struct {
	Masters []string `yaml:"masters"`
}

type duoRight struct {
	Sentinels []string `yaml:"sentinels"`
	Auth      *Auth    `yaml:"auth,omitempty"`
}

func (*duoLeft) Auths() []*Auth    { return nil }
func (r *duoRight) Auths() []*Auth { return []*Auth{r.Auth} }

var duoStore = Store{
	Kinds: []backend.Kind{duoOne, duoWith},
	Roles: []RoleKey{
		{Key: "duo-left", New: func() RoleValue { return new(duoLeft) }},
		{Key: "duo-right", New: func() RoleValue { return new(duoRight) }},
		{Key: "duo-auth", New: func() RoleValue { return new(Auth) }, Shared: true},
	},
	Layout:  duoLayout,
	Probe:   duoProbe,
	Cleanup: recordCleanup,
}

func init() {
	RegisterStore(membersStore)
	RegisterStore(duoStore)
}

func duoLayout(d *Deployment, strategy string, spec backend.Spec) (Layout, error) {
	left := RoleOf[*duoLeft](d, "duo-left")
	if left == nil || len(left.Masters) == 0 {
		return Layout{}, MissingRole(strategy, "duo-left.masters", "the masters")
	}
	l := Layout{Masters: NewNodes(topologies.RoleMaster, "master", left.Masters), Auth: RoleOf[*Auth](d, "duo-auth"),
		Spec: backend.Spec{Masters: len(left.Masters)}}
	if spec.Kind == duoWith {
		right := RoleOf[*duoRight](d, "duo-right")
		if right == nil || len(right.Sentinels) == 0 {
			return Layout{}, MissingRole(strategy, "duo-right.sentinels", "the sentinels")
		}
		l.Sentinels, l.SentinelAuth = NewNodes(topologies.RoleSentinel, "sentinel", right.Sentinels), right.Auth
	}
	return l, nil
}

// duoProbe makes the last master the master when sentinels are given, as a store whose
// sentinels name the master replaces the masters it was given.
func duoProbe(ctx context.Context, s *Servers) ([]resultsdir.ExternalServer, error) {
	if len(s.Sentinels) > 0 {
		s.Masters = NewNodes(topologies.RoleMaster, "master", []string{s.Masters[len(s.Masters)-1].Addr()})
	}
	return recordVersions(ctx, s)
}

func recordVersions(_ context.Context, s *Servers) ([]resultsdir.ExternalServer, error) {
	var out []resultsdir.ExternalServer
	for _, n := range s.Nodes() {
		out = append(out, resultsdir.ExternalServer{Role: string(n.Role()), Name: n.Name(), Addr: n.Addr(), Version: "test"})
	}
	return out, nil
}

var (
	cleanedMu sync.Mutex
	cleaned   []Servers // what each cleanup was given, with its prefix in cleanedAt
	cleanedAt []string
)

func recordCleanup(_ context.Context, s Servers, prefix string) (int64, error) {
	cleanedMu.Lock()
	defer cleanedMu.Unlock()
	cleaned, cleanedAt = append(cleaned, s), append(cleanedAt, prefix)
	return 0, nil
}
