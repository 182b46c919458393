// Package external is the provider of deployments lockbench does not own: the user's own
// Redis, Sentinel, Redlock masters, or the members of a store that registered its part
// of the file (etcd), given by address in a deployment file. It
// never breaks them (no kill, pause, restart, network or clock fault), writes only under
// its run's key prefix and deletes that prefix when the topology closes.
package external

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lockbench/lockbench/topologies"
)

// Deployment is the deployment file: addresses per role, who to log in as, TLS.
type Deployment struct {
	Single     *SingleRole     `yaml:"single,omitempty"`
	Replicated *ReplicatedRole `yaml:"replicated,omitempty"`
	Sentinel   *SentinelRole   `yaml:"sentinel,omitempty"`
	Redlock    *RedlockRole    `yaml:"redlock,omitempty"`
	// Members are the roles of the stores that registered with RegisterStore, by their
	// file key (etcd: endpoints, auth).
	Members map[string]*MembersRole `yaml:",inline"`
	// Auth is the ACL user of the Redis servers (masters and replicas).
	Auth *Auth `yaml:"auth,omitempty"`
	// TLS applies to every server of the file.
	TLS *TLS `yaml:"tls,omitempty"`
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
	Auth *Auth `yaml:"auth,omitempty"`
}

// RedlockRole is the N independent masters (strategies redlock, redlock-failfast).
type RedlockRole struct {
	Masters []string `yaml:"masters"`
}

// Auth names a user and where its password is: a file or an environment variable,
// never the file itself or a flag (both end up in shells' history and ps).
type Auth struct {
	Username     string `yaml:"username,omitempty"`
	PasswordFile string `yaml:"password_file,omitempty"`
	PasswordEnv  string `yaml:"password_env,omitempty"`
}

// TLS is the client side of TLS: the CA that signed the servers, an optional client
// certificate, and the name the servers' certificates carry.
type TLS struct {
	CAFile     string `yaml:"ca_file,omitempty"`
	CertFile   string `yaml:"cert_file,omitempty"`
	KeyFile    string `yaml:"key_file,omitempty"`
	ServerName string `yaml:"server_name,omitempty"`
}

// Load reads and checks a deployment file.
func Load(path string) (*Deployment, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("deployment file: %w", err)
	}
	d, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("deployment file %s: %w", path, err)
	}
	return d, nil
}

// Parse reads a deployment strictly: an unknown field is an error that names it.
func Parse(data []byte) (*Deployment, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("the file is empty: it names no server")
	}
	var d Deployment
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&d); err != nil && !errors.Is(err, io.EOF) {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	roles := append([]string{"single", "replicated", "sentinel", "redlock"}, storeKeys()...)
	for key, m := range d.Members {
		if _, ok := storeKeyed(key); !ok {
			return nil, fmt.Errorf("field %s not found: the file's roles are %s, auth and tls", key, strings.Join(roles, ", "))
		}
		if m == nil {
			delete(d.Members, key) // an empty role names no server
		}
	}
	if d.Single == nil && d.Replicated == nil && d.Sentinel == nil && d.Redlock == nil && len(d.Members) == 0 {
		return nil, fmt.Errorf("no role given: want at least one of %s", strings.Join(roles, ", "))
	}
	for _, a := range d.auths() {
		if a != nil && a.PasswordFile != "" && a.PasswordEnv != "" {
			return nil, errors.New("auth: give password_file or password_env, not both")
		}
	}
	if d.TLS != nil && (d.TLS.CertFile == "") != (d.TLS.KeyFile == "") {
		return nil, errors.New("tls: cert_file and key_file go together")
	}
	return &d, nil
}

func sentinelAuth(s *SentinelRole) *Auth {
	if s == nil {
		return nil
	}
	return s.Auth
}

// auths are every user the file names: the Redis servers', the sentinels', each store's.
func (d *Deployment) auths() []*Auth {
	out := []*Auth{d.Auth, sentinelAuth(d.Sentinel)}
	for _, key := range storeKeys() {
		if m := d.Members[key]; m != nil {
			out = append(out, m.Auth)
		}
	}
	return out
}

// redisKinds are the kinds the provider serves from the file's Redis roles.
var redisKinds = []topologies.Kind{topologies.Single, topologies.Replicated, topologies.Sentinel, topologies.Redlock}

// Serves lists the topology kinds the external provider can serve: the Redis kinds and
// every store registered with RegisterStore.
func Serves() []topologies.Kind {
	return append(append([]topologies.Kind{}, redisKinds...), storeKinds()...)
}

// Check says whether the deployment has every role strategy (on spec) needs, in the
// size the strategy is named for (redlock-3 on three masters, wait-2of2 on two replicas).
func (d *Deployment) Check(strategy string, spec topologies.Spec) error {
	kind := spec.Kind
	missing := func(role, what string) error {
		return fmt.Errorf("deployment file: strategy %s needs role %s (%s), which the file lacks", strategy, role, what)
	}
	switch kind {
	case topologies.Single:
		if d.Single == nil || d.Single.Master == "" {
			return missing("single.master", "the one master")
		}
	case topologies.Replicated:
		if d.Replicated == nil || d.Replicated.Master == "" {
			return missing("replicated.master", "the master WAIT runs on")
		}
		if len(d.Replicated.Replicas) == 0 {
			return missing("replicated.replicas", "the replicas WAIT counts")
		}
		if len(d.Replicated.Replicas) < spec.Replicas {
			return fmt.Errorf("deployment file: strategy %s needs %d replicas, replicated.replicas lists %d", strategy, spec.Replicas, len(d.Replicated.Replicas))
		}
	case topologies.Sentinel:
		if d.Sentinel == nil || len(d.Sentinel.Sentinels) == 0 {
			return missing("sentinel.sentinels", "the sentinels' addresses")
		}
		if d.Sentinel.MasterName == "" {
			return missing("sentinel.master_name", "the name the sentinels monitor")
		}
	case topologies.Redlock:
		if d.Redlock == nil || len(d.Redlock.Masters) == 0 {
			return missing("redlock.masters", "the N independent masters")
		}
		if spec.Masters != 0 && spec.Masters != len(d.Redlock.Masters) {
			return fmt.Errorf("deployment file: strategy %s runs on %d masters, redlock.masters lists %d", strategy, spec.Masters, len(d.Redlock.Masters))
		}
		if len(d.Redlock.Masters)%2 == 0 {
			return fmt.Errorf("deployment file: strategy %s: redlock.masters has %d addresses; want an odd number, so that a majority is unique", strategy, len(d.Redlock.Masters))
		}
	default:
		if s, ok := storeFor(kind); ok {
			if m := d.Members[s.Key]; m == nil || len(m.Endpoints) == 0 {
				return missing(s.Key+".endpoints", "the members' client endpoints")
			}
			return nil
		}
		return fmt.Errorf("strategy %s runs on %s, which provider external does not serve: it serves %s", strategy, kind, kindNames())
	}
	return nil
}

func kindNames() string {
	serves := Serves()
	names := make([]string, len(serves))
	for i, k := range serves {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
