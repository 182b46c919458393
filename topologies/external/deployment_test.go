package external

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
)

// testStore stands for a store that registered its members' role (etcd registers from
// backends/etcd/etcdexternal, which this package's own tests cannot import).
var testStore = Store{Kind: "members-test", Key: "members-test",
	Probe:   func(context.Context, Servers) ([]resultsdir.ExternalServer, error) { return nil, nil },
	Cleanup: func(context.Context, Servers, string) (int64, error) { return 0, nil }}

func init() { RegisterStore(testStore) }

func TestParseIsStrict(t *testing.T) {
	for body, want := range map[string]string{
		"":                                    "empty",
		"single:\n  master: a:1\n  port: 2\n": "port",
		"single:\n  master: a:1\nauth:\n  password: x\n": "password",
		"tls:\n  ca_file: x\n":                           "no role given",
		"single:\n  master: a:1\ntls:\n  cert_file: c\n": "go together",
		"zookeeper:\n  endpoints: [z:1]\n":               "field zookeeper not found: the file's roles are single, replicated, sentinel, redlock, members-test, auth and tls",
		"members-test:\n  endpoint: [e:1]\n":             "endpoint",
	} {
		if _, err := Parse([]byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error naming %q", body, err, want)
		}
	}
	d, err := Parse([]byte("single:\n  master: a:1\nredlock:\n  masters: [a:1, b:1, c:1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Single.Master != "a:1" || len(d.Redlock.Masters) != 3 {
		t.Errorf("parsed %+v", d)
	}
	d, err = Parse([]byte("members-test:\n  endpoints: [e:1, e:2]\n  auth:\n    username: u\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m := d.Members["members-test"]; m == nil || len(m.Endpoints) != 2 || m.Auth.Username != "u" {
		t.Errorf("a registered store's role parsed as %+v", d.Members)
	}
}

// A registered store's kind is served from its role: the members are its endpoints.
func TestRegisteredStoreIsServedFromItsRole(t *testing.T) {
	if !(Provider{}).Serves(testStore.Kind) {
		t.Fatalf("Serves(%s) = false after RegisterStore", testStore.Kind)
	}
	d := &Deployment{Members: map[string]*MembersRole{"members-test": {Endpoints: []string{"e:1", "e:2", "e:3"}}}}
	if err := d.Check("strat-y", topologies.Spec{Kind: testStore.Kind}); err != nil {
		t.Fatal(err)
	}
	topo, err := Provider{Deployment: d, Prefix: KeyPrefix("t1")}.Start(context.Background(), topologies.Spec{Kind: testStore.Kind})
	if err != nil {
		t.Fatal(err)
	}
	if got := topologies.Addrs(topo.Masters()); len(got) != 3 || topo.Spec().Members != 3 {
		t.Errorf("members %v, spec %+v", got, topo.Spec())
	}
	defer func() {
		if recover() == nil {
			t.Error("a second store under the same key was accepted")
		}
	}()
	RegisterStore(Store{Kind: "other", Key: "members-test"})
}

func TestCheckNamesStrategyAndRole(t *testing.T) {
	d := &Deployment{Single: &SingleRole{Master: "a:1"}}
	if err := d.Check("single", topologies.Spec{Kind: topologies.Single}); err != nil {
		t.Errorf("single on a file with single: %v", err)
	}
	for kind, role := range map[topologies.Kind]string{topologies.Replicated: "replicated.master", topologies.Sentinel: "sentinel.sentinels", topologies.Redlock: "redlock.masters", testStore.Kind: "members-test.endpoints"} {
		err := d.Check("strat-x", topologies.Spec{Kind: kind})
		if err == nil || !strings.Contains(err.Error(), "strat-x") || !strings.Contains(err.Error(), role) {
			t.Errorf("%s: %v, want the strategy and role %s named", kind, err, role)
		}
	}
}

func TestRefusesFaultsOfServersItDoesNotOwn(t *testing.T) {
	if err := Refuses(topologies.Spec{Kind: topologies.Redlock, Clocks: map[string]clocks.Model{"master-0": {}}}); err == nil || !strings.Contains(err.Error(), "only breaks servers it owns") {
		t.Errorf("clocks: %v", err)
	}
	if err := Refuses(topologies.Spec{Kind: zookeeper.Kind}); err == nil || !strings.Contains(err.Error(), "serves single") {
		t.Errorf("zookeeper: %v", err)
	}
	if err := Refuses(topologies.Spec{Kind: topologies.Single}); err != nil {
		t.Errorf("single: %v", err)
	}
	n := node{name: "master-0", addr: "a:1"}
	for what, err := range map[string]error{"kill": n.Kill(), "pause": n.Pause(), "resume": n.Resume(), "restart": n.Restart(context.Background(), topologies.RestartEmpty)} {
		if err == nil || !strings.Contains(err.Error(), "does not own") {
			t.Errorf("%s: %v", what, err)
		}
	}
	if !n.Running() {
		t.Error("an external node is assumed running")
	}
}

func TestSecretsComeFromFileOrVariable(t *testing.T) {
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LOCKBENCH_TEST_PW", "from-env")
	d := &Deployment{Single: &SingleRole{Master: "a:1"}, Auth: &Auth{Username: "u", PasswordFile: pw},
		Members: map[string]*MembersRole{"members-test": {Endpoints: []string{"e:1"}, Auth: &Auth{PasswordEnv: "LOCKBENCH_TEST_PW"}}}}
	a, err := d.access(d.Auth)
	if err != nil || a.Username != "u" || a.Password != "from-file" {
		t.Errorf("file: %+v, %v", a, err)
	}
	if e, err := d.access(d.Members["members-test"].Auth); err != nil || e.Password != "from-env" {
		t.Errorf("env: %+v, %v", e, err)
	}
	if got := d.Secrets(); len(got) != 2 {
		t.Errorf("secrets %d, want 2", len(got))
	}
	d.Auth.PasswordFile = filepath.Join(dir, "missing")
	if err := d.CheckSecrets(); err == nil || !strings.Contains(err.Error(), "password_file") {
		t.Errorf("a missing password file: %v", err)
	}
}

func TestRunIDGoesIntoAPatternSafely(t *testing.T) {
	if err := CheckRunID(NewRunID()); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"", "a*", "a:b", "a?b", "[x]", strings.Repeat("a", 65)} {
		if CheckRunID(bad) == nil {
			t.Errorf("run id %q accepted", bad)
		}
	}
	if NewRunID() == NewRunID() {
		t.Error("two run ids alike")
	}
}
