package redisexternal_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	_ "github.com/lockbench/lockbench/backends/all" // every store's roles, Redis's and etcd's, in the backend registry's rank
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/backends/redis/redisexternal"
	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/external"
)

func mustParse(t *testing.T, body string) *external.Deployment {
	t.Helper()
	d, err := external.Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestParseIsStrict(t *testing.T) {
	for body, want := range map[string]string{
		"":                                    "empty",
		"single:\n  master: a:1\n  port: 2\n": "line 3: field port not found in type redisexternal.SingleRole",
		"single:\n  master: a:1\nauth:\n  password: x\n":                         "line 4: field password not found",
		"sentinel:\n  sentinels: [s:1]\n  auth:\n    password: x\n":              "line 4: field password not found",
		"tls:\n  ca_file: x\n":                                                   "no role given: want at least one of single, replicated, sentinel, redlock, etcd",
		"auth:\n  username: u\n":                                                 "no role given",
		"single:\n  master: a:1\ntls:\n  cert_file: c\n":                         "go together",
		"single:\n  master: a:1\nauth:\n  password_file: f\n  password_env: E\n": "not both",
		"zookeeper:\n  endpoints: [z:1]\n":                                       "field zookeeper not found: the file's roles are single, replicated, sentinel, redlock, etcd, auth and tls",
	} {
		if _, err := external.Parse([]byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error naming %q", body, err, want)
		}
	}
	d := mustParse(t, "single:\n  master: a:1\nredlock:\n  masters: [a:1, b:1, c:1]\n")
	if s := external.RoleOf[*redisexternal.SingleRole](d, "single"); s == nil || s.Master != "a:1" {
		t.Errorf("single parsed as %+v", s)
	}
	if r := external.RoleOf[*redisexternal.RedlockRole](d, "redlock"); r == nil || len(r.Masters) != 3 {
		t.Errorf("redlock parsed as %+v", r)
	}
	d = mustParse(t, "etcd:\n  endpoints: [e:1, e:2]\n  auth:\n    username: u\n")
	if m := external.RoleOf[*external.MembersRole](d, "etcd"); m == nil || len(m.Endpoints) != 2 || m.Auth.Username != "u" {
		t.Errorf("etcd's role parsed as %+v", m)
	}
}

func TestServesRedisKindsFirst(t *testing.T) {
	got := make([]string, 0, 5)
	for _, k := range external.Serves() {
		got = append(got, string(k))
	}
	if strings.Join(got, ",") != "single,replicated,sentinel,redlock,etcd" {
		t.Errorf("Serves() = %v", got)
	}
}

func TestCheckNamesStrategyAndRole(t *testing.T) {
	d := mustParse(t, "single:\n  master: a:1\n")
	if err := d.Check("single", backend.Spec{Kind: topologies.Single}); err != nil {
		t.Errorf("single on a file with single: %v", err)
	}
	for kind, role := range map[backend.Kind]string{topologies.Replicated: "replicated.master", topologies.Sentinel: "sentinel.sentinels", topologies.Redlock: "redlock.masters", etcd.Kind: "etcd.endpoints"} {
		err := d.Check("strat-x", backend.Spec{Kind: kind})
		if err == nil || !strings.Contains(err.Error(), "strat-x") || !strings.Contains(err.Error(), role) {
			t.Errorf("%s: %v, want the strategy and role %s named", kind, err, role)
		}
	}
}

func TestRefusesFaultsOfServersItDoesNotOwn(t *testing.T) {
	if err := external.Refuses(backend.Spec{Kind: topologies.Redlock, Clocks: map[string]clocks.Model{"master-0": {}}}); err == nil || !strings.Contains(err.Error(), "only breaks servers it owns") {
		t.Errorf("clocks: %v", err)
	}
	if err := external.Refuses(backend.Spec{Kind: zookeeper.Kind}); err == nil || !strings.Contains(err.Error(), "serves single, replicated, sentinel, redlock, etcd") {
		t.Errorf("zookeeper: %v", err)
	}
	if err := external.Refuses(backend.Spec{Kind: topologies.Single}); err != nil {
		t.Errorf("single: %v", err)
	}
}

func TestSecretsComeFromFileOrVariable(t *testing.T) {
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LOCKBENCH_TEST_PW", "from-env")
	d := mustParse(t, "single:\n  master: a:1\nauth:\n  username: u\n  password_file: "+pw+
		"\netcd:\n  endpoints: [e:1]\n  auth:\n    password_env: LOCKBENCH_TEST_PW\n")
	if got := strings.Join(d.Secrets(), ","); got != "from-env,from-file" {
		t.Errorf("secrets %q, want etcd's and the Redis servers'", got)
	}
	if err := d.CheckSecrets(); err != nil {
		t.Error(err)
	}
	external.RoleOf[*external.Auth](d, "auth").PasswordFile = filepath.Join(dir, "missing")
	if err := d.CheckSecrets(); err == nil || !strings.Contains(err.Error(), "password_file") {
		t.Errorf("a missing password file: %v", err)
	}
}
