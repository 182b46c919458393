// Package external is the provider of deployments lockbench does not own, given by
// address in a deployment file: each store registers its part of the file from its own
// folder (RegisterStore: Redis's roles from backends/redis/redisexternal, etcd's from
// backends/etcd/etcdexternal), so this package names none. It never breaks the servers
// (no kill, pause, restart, network or clock fault), writes only under its run's key
// prefix and deletes that prefix when the topology closes.
package external

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lockbench/lockbench/backend"
)

// Deployment is the deployment file: each registered key it gives, decoded, and TLS.
type Deployment struct {
	// TLS applies to every server of the file.
	TLS   *TLS
	roles map[string]RoleValue
}

// RoleOf is d's role under key, or the zero T (nil) when the file does not give it.
func RoleOf[T RoleValue](d *Deployment, key string) T {
	v, _ := d.roles[key].(T)
	return v
}

// Auth names a user and where its password is: a file or an environment variable,
// never the file itself or a flag (both end up in shells' history and ps).
type Auth struct {
	Username     string `yaml:"username,omitempty"`
	PasswordFile string `yaml:"password_file,omitempty"`
	PasswordEnv  string `yaml:"password_env,omitempty"`
}

// Auths lets a key whose value is a user alone (Redis's top-level auth) be a role.
func (a *Auth) Auths() []*Auth { return []*Auth{a} }

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
	keys := roleKeys()
	if err := checkTopKeys(data, keys); err != nil {
		return nil, err
	}
	d, err := decode(data, keys)
	if err != nil {
		return nil, err
	}
	if !d.namesARole(keys) {
		return nil, fmt.Errorf("no role given: want at least one of %s", strings.Join(namedKeys(keys), ", "))
	}
	for _, a := range d.auths() {
		if a.PasswordFile != "" && a.PasswordEnv != "" {
			return nil, errors.New("auth: give password_file or password_env, not both")
		}
	}
	if d.TLS != nil && (d.TLS.CertFile == "") != (d.TLS.KeyFile == "") {
		return nil, errors.New("tls: cert_file and key_file go together")
	}
	return d, nil
}

// checkTopKeys refuses a top-level key no store registered, listing those that exist:
// the decoder's own error would name the struct type Parse builds, not the file's roles.
func checkTopKeys(data []byte, keys []RoleKey) error {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return yamlError(err)
	}
	if len(root.Content) == 0 {
		return nil // comments only: no role given
	}
	if doc := root.Content[0]; doc.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: want a mapping of the file's roles (%s and tls)", doc.Line,
			strings.Join(keyNames(keys), ", "))
	}
	top := root.Content[0].Content
	for i := 0; i < len(top); i += 2 {
		if k := top[i].Value; k != "tls" && !hasKey(keys, k) {
			return fmt.Errorf("field %s not found: the file's roles are %s and tls", k, strings.Join(keyNames(keys), ", "))
		}
	}
	return nil
}

// decode reads the whole file once into a struct of one field per registered key (and
// tls), strictly, so that an unknown field inside a role is named with its line.
func decode(data []byte, keys []RoleKey) (*Deployment, error) {
	fields := []reflect.StructField{{Name: "TLS", Type: reflect.TypeOf(&TLS{}), Tag: `yaml:"tls,omitempty"`}}
	for i, k := range keys {
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("Role%d", i), Type: reflect.TypeOf(k.New()),
			Tag: reflect.StructTag(fmt.Sprintf("yaml:%q", k.Key+",omitempty"))})
	}
	file := reflect.New(reflect.StructOf(fields))
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(file.Interface()); err != nil && !errors.Is(err, io.EOF) {
		return nil, yamlError(err)
	}
	d := &Deployment{TLS: file.Elem().Field(0).Interface().(*TLS), roles: map[string]RoleValue{}}
	for i, k := range keys {
		if v := file.Elem().Field(i + 1); !v.IsNil() { // an empty role names no server
			d.roles[k.Key] = v.Interface().(RoleValue)
		}
	}
	return d, nil
}

func yamlError(err error) error { return errors.New(strings.TrimPrefix(err.Error(), "yaml: ")) }

// namesARole says whether d gives a key that names servers, not only a shared user.
func (d *Deployment) namesARole(keys []RoleKey) bool {
	for _, k := range keys {
		if _, given := d.roles[k.Key]; given && !k.Shared {
			return true
		}
	}
	return false
}

// auths are every user the file names, in the order of the keys.
func (d *Deployment) auths() []*Auth {
	var out []*Auth
	for _, k := range roleKeys() {
		if v, given := d.roles[k.Key]; given {
			for _, a := range v.Auths() {
				if a != nil {
					out = append(out, a)
				}
			}
		}
	}
	return out
}

func hasKey(keys []RoleKey, key string) bool {
	for _, k := range keys {
		if k.Key == key {
			return true
		}
	}
	return false
}

func keyNames(keys []RoleKey) []string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Key
	}
	return names
}

// namedKeys are the keys that name servers: the roles a file must give one of.
func namedKeys(keys []RoleKey) []string {
	var names []string
	for _, k := range keys {
		if !k.Shared {
			names = append(names, k.Key)
		}
	}
	return names
}

// Serves lists the topology kinds the external provider can serve: those of every store
// registered with RegisterStore.
func Serves() []backend.Kind { return storeKinds() }

// Check says whether the deployment has every role strategy (on spec) needs, in the
// size the strategy is named for (redlock-3 on three masters, wait-2of2 on two replicas).
func (d *Deployment) Check(strategy string, spec backend.Spec) error {
	_, _, err := d.layout(strategy, spec)
	return err
}

// layout is the servers the file gives strategy, and the store that serves its kind.
func (d *Deployment) layout(strategy string, spec backend.Spec) (Store, Layout, error) {
	s, ok := storeFor(spec.Kind)
	if !ok {
		return Store{}, Layout{}, fmt.Errorf(
			"strategy %s runs on %s, which provider external does not serve: it serves %s", strategy, spec.Kind, kindNames())
	}
	l, err := s.Layout(d, strategy, spec)
	return s, l, err
}

func kindNames() string {
	serves := Serves()
	names := make([]string, len(serves))
	for i, k := range serves {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
