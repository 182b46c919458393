package external

import (
	"context"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
)

// MembersRole is a store's part of the deployment file when that store is a group of
// members clients may dial any of (etcd): its client endpoints and the user to log in
// as. The file gives it under the key its store registered.
type MembersRole struct {
	Endpoints []string `yaml:"endpoints"`
	Auth      *Auth    `yaml:"auth,omitempty"`
}

// Auths is the members' user.
func (m *MembersRole) Auths() []*Auth { return []*Auth{m.Auth} }

// MembersStore is the Store of a kind served by a group of members, from the file's key
// (endpoints, auth): the members stand where a topology's members stand, in Masters.
func MembersStore(kind backend.Kind, key string,
	probe func(context.Context, *Servers) ([]resultsdir.ExternalServer, error),
	cleanup func(context.Context, Servers, string) (int64, error)) Store {
	return Store{
		Kinds:   []backend.Kind{kind},
		Roles:   []RoleKey{{Key: key, New: func() RoleValue { return new(MembersRole) }}},
		Layout:  membersLayout(key),
		Probe:   probe,
		Cleanup: cleanup,
	}
}

// membersLayout reads the members' endpoints and user from the file's key.
func membersLayout(key string) func(*Deployment, string, backend.Spec) (Layout, error) {
	return func(d *Deployment, strategy string, _ backend.Spec) (Layout, error) {
		m := RoleOf[*MembersRole](d, key)
		if m == nil || len(m.Endpoints) == 0 {
			return Layout{}, MissingRole(strategy, key+".endpoints", "the members' client endpoints")
		}
		members := NewNodes(topologies.RoleMember, "member", m.Endpoints)
		return Layout{Masters: members, Spec: backend.Spec{Members: len(members)}, Auth: m.Auth}, nil
	}
}
