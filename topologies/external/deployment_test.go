package external

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/topologies"
)

func TestParseIsStrict(t *testing.T) {
	for body, want := range map[string]string{
		"":                                    "empty",
		"single:\n  master: a:1\n  port: 2\n": "port",
		"single:\n  master: a:1\nauth:\n  password: x\n": "password",
		"tls:\n  ca_file: x\n":                           "no role given",
		"single:\n  master: a:1\ntls:\n  cert_file: c\n": "go together",
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
}

func TestCheckNamesStrategyAndRole(t *testing.T) {
	d := &Deployment{Single: &SingleRole{Master: "a:1"}}
	if err := d.Check("single", topologies.Spec{Kind: topologies.Single}); err != nil {
		t.Errorf("single on a file with single: %v", err)
	}
	for kind, role := range map[topologies.Kind]string{topologies.Replicated: "replicated.master", topologies.Sentinel: "sentinel.sentinels", topologies.Redlock: "redlock.masters", topologies.Etcd: "etcd.endpoints"} {
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
	if err := Refuses(topologies.Spec{Kind: topologies.ZooKeeper}); err == nil || !strings.Contains(err.Error(), "serves single") {
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
		Etcd: &EtcdRole{Endpoints: []string{"e:1"}, Auth: &Auth{PasswordEnv: "LOCKBENCH_TEST_PW"}}}
	a, err := d.access(d.Auth)
	if err != nil || a.Username != "u" || a.Password != "from-file" {
		t.Errorf("file: %+v, %v", a, err)
	}
	if e, err := d.access(d.Etcd.Auth); err != nil || e.Password != "from-env" {
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
