package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// externalServers are lockbench-started servers posed as someone else's: one replicated
// pair (single and wait share its master), a sentinel group, three redlock masters.
type externalServers struct {
	replicated, sentinel, redlock topologies.Topology
}

func startExternalServers(t *testing.T) externalServers {
	t.Helper()
	s := externalServers{
		replicated: testenv.Start(t, backend.Spec{Kind: topologies.Replicated, Replicas: 1}),
		sentinel:   testenv.Start(t, backend.Spec{Kind: topologies.Sentinel, Replicas: 1, Sentinels: 1, SentinelQuorum: 1}),
		redlock:    testenv.Start(t, backend.Spec{Kind: topologies.Redlock, Masters: 3}),
	}
	for _, topo := range []topologies.Topology{s.replicated, s.sentinel, s.redlock} {
		restrictUser(t, topo)
	}
	return s
}

func (s externalServers) all() []topologies.Node {
	var out []topologies.Node
	for _, topo := range []topologies.Topology{s.replicated, s.sentinel, s.redlock} {
		out = append(out, topo.Nodes()...)
	}
	return out
}

func (s externalServers) masters() []topologies.Node {
	return append(append(append([]topologies.Node{}, s.replicated.Masters()...), s.sentinel.Masters()...), s.redlock.Masters()...)
}

// deploymentFile writes the deployment file of s with the password in a file.
func (s externalServers) deploymentFile(t *testing.T, dir string) string {
	t.Helper()
	pw := writeSecretFile(t, dir)
	quoted := func(nodes []topologies.Node) string {
		var q []string
		for _, a := range topologies.Addrs(nodes) {
			q = append(q, fmt.Sprintf("%q", a))
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	master := s.replicated.Masters()[0].Addr()
	body := fmt.Sprintf(`single:
  master: %q
replicated:
  master: %q
  replicas: %s
sentinel:
  sentinels: %s
  master_name: %s
  auth:
    username: %s
    password_file: %s
redlock:
  masters: %s
auth:
  username: %s
  password_file: %s
`, master, master, quoted(s.replicated.Replicas()), quoted(s.sentinel.Sentinels()), s.sentinel.Spec().MasterName,
		aclUser, pw, quoted(s.redlock.Masters()), aclUser, pw)
	path := filepath.Join(dir, "deployment.yaml")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestACLDenialIsSeen is the check below on a history that must fail: a command outside
// the user's ACL shows in ACL LOG.
func TestACLDenialIsSeen(t *testing.T) {
	t.Parallel()
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single})
	restrictUser(t, topo)
	addr := topo.Masters()[0].Addr()
	c := redis.NewClient(&redis.Options{Addr: addr, Username: aclUser, Password: aclPassword, Protocol: 2, DisableIdentity: true})
	defer c.Close()
	ctx := context.Background()
	if err := c.Set(ctx, "lockbench:ok", "1", 0).Err(); err != nil {
		t.Fatalf("the user cannot SET under its prefix: %v", err)
	}
	if err := c.FlushAll(ctx).Err(); err == nil {
		t.Fatal("FLUSHALL was allowed to the restricted user")
	}
	if err := c.Set(ctx, "elsewhere", "1", 0).Err(); err == nil {
		t.Fatal("a key outside lockbench: was allowed")
	}
	if got := deniedFor(t, addr, aclUser); len(got) != 2 {
		t.Errorf("ACL LOG for %s = %q, want the FLUSHALL and the key outside the prefix", aclUser, got)
	}
}

// TestExternalRunTrespassesNowhere runs every Redis strategy through provider external
// as a user allowed only the allow-list, on keys under lockbench:*; the servers saw no
// denied command, hold no key afterwards, and the password is in nothing written.
func TestExternalRunTrespassesNowhere(t *testing.T) {
	t.Parallel()
	s := startExternalServers(t)
	dir := t.TempDir()
	deployment := s.deploymentFile(t, dir)
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	code := runOnDeployment([]string{"run", "--deployment", deployment, "--strategies", "single,wait,sentinel,redlock,redlock-failfast",
		"--clients", "2", "--keys", "1", "--duration", "1s", "--warmup", "0", "--intervals", "2",
		"--no-report", "--progress", "plain", "--out", out}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		file, _ := os.ReadFile(deployment) // names a password file, never a password
		t.Fatalf("exit %d\nstdout %s\nstderr %s\ndeployment file:\n%s", code, stdout.String(), stderr.String(), file)
	}
	r, err := resultsdir.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Environment.RunID == "" || r.Environment.Provider != "external" {
		t.Errorf("run id %q, provider %q: the run does not say it ran on external servers under its own id", r.Environment.RunID, r.Environment.Provider)
	}
	if len(r.Cells) != 5 {
		t.Fatalf("%d cells, want 5", len(r.Cells))
	}
	for _, c := range r.Cells {
		t.Logf("%s as ACL user %s: %d granted, %.0f cycles/s", c.Strategy, aclUser, c.Granted, c.CyclesPerSecond)
		// A WAIT that timed out (not-replicated) was a command the user may run: the
		// machine's load, not the ACL, decides whether a replica answers in time.
		_, timedOut := c.Errors["not-replicated"]
		if c.Granted == 0 || len(c.Errors) > 1 || len(c.Errors) == 1 && !timedOut {
			t.Errorf("%s: granted %d, errors %v", c.Strategy, c.Granted, c.Errors)
		}
		servers := r.Environment.External[c.Strategy]
		if len(servers) == 0 || !strings.HasPrefix(servers[0].Version, "7.") {
			t.Errorf("%s: servers recorded %+v, want addresses and a redis_version", c.Strategy, servers)
		}
	}
	for _, n := range s.all() {
		if denied := deniedFor(t, n.Addr(), aclUser); len(denied) > 0 {
			t.Errorf("%s (%s) denied %s: %q", n.Name(), n.Role(), aclUser, denied)
		}
	}
	for _, m := range s.masters() {
		if keys := allKeys(t, m.Addr()); len(keys) > 0 {
			t.Errorf("%s holds keys after the run (prefix lockbench:%s:): %q", m.Name(), r.Environment.RunID, keys)
		}
	}
	assertSecretNowhere(t, out, stdout.String(), stderr.String())
}

// A run that cannot reach its servers as configured says so and exits non-zero.
func TestExternalWrongPasswordFailsClearly(t *testing.T) {
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single})
	restrictUser(t, topo)
	dir := t.TempDir()
	t.Setenv("LOCKBENCH_TEST_WRONG_PW", "not-the-password")
	path := filepath.Join(dir, "d.yaml")
	body := fmt.Sprintf("single:\n  master: %q\nauth:\n  username: %s\n  password_env: LOCKBENCH_TEST_WRONG_PW\n", topo.Masters()[0].Addr(), aclUser)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code := runOnDeployment([]string{"run", "--deployment", path, "--strategies", "single", "--clients", "1", "--keys", "1",
		"--duration", "1s", "--no-report", "--out", filepath.Join(dir, "out")}, nil, io.Discard, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), "master-0") || !strings.Contains(stderr.String(), "WRONGPASS") {
		t.Errorf("exit %d, stderr %q: want a failure naming the server and the refusal", code, stderr.String())
	}
	if strings.Contains(stderr.String(), "not-the-password") {
		t.Error("stderr holds the password")
	}
}
