package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/external"
	"github.com/lockbench/lockbench/topologies/testenv"
)

const (
	// etcdAuthRunID fixes the run's prefix, so that a role can be granted on it beforehand.
	etcdAuthRunID = "etcd-auth-run"
	// etcdRootPassword is the test admin's; lockbench is never given it.
	etcdRootPassword = "root-Pa55word-of-the-test-admin"
	// etcdOutsideKey is someone else's key, outside the run's prefix.
	etcdOutsideKey = "someone-else/key"
)

// authEtcd is a one-member etcd (the etcd provider's) with auth enabled: user root
// (role root), user lockbench allowed read-write on the run's prefix only, and user
// outsider allowed read-write on other: only. Both users' password is aclPassword,
// which assertSecretNowhere looks for.
type authEtcd struct {
	endpoints []string
	root      *clientv3.Client
}

// etcdClient connects as user (none if ""), closed when t ends.
func etcdClient(t *testing.T, endpoints []string, user, password string) *clientv3.Client {
	t.Helper()
	c, err := clientv3.New(clientv3.Config{Endpoints: endpoints, DialTimeout: 5 * time.Second,
		Username: user, Password: password, Logger: zap.NewNop()})
	if err != nil {
		t.Fatalf("etcd client as %q: %v", user, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func startAuthEtcd(t *testing.T) authEtcd {
	t.Helper()
	topo := testenv.Start(t, backend.Spec{Kind: etcd.Kind})
	endpoints := topologies.Addrs(topo.Masters())
	for _, e := range endpoints {
		if !strings.HasPrefix(e, "127.0.0.1:") {
			t.Fatalf("etcd endpoint %s is not on 127.0.0.1", e)
		}
	}
	admin := etcdClient(t, endpoints, "", "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	step := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	_, err := admin.UserAdd(ctx, "root", etcdRootPassword)
	step("add user root", err)
	_, err = admin.UserGrantRole(ctx, "root", "root")
	step("grant root role root", err)
	restricted := func(user, role, prefix string) {
		_, err := admin.RoleAdd(ctx, role)
		step("add role "+role, err)
		_, err = admin.RoleGrantPermission(ctx, role, prefix, clientv3.GetPrefixRangeEnd(prefix), clientv3.PermissionType(clientv3.PermReadWrite))
		step("grant "+role+" readwrite on "+prefix, err)
		_, err = admin.UserAdd(ctx, user, aclPassword)
		step("add user "+user, err)
		_, err = admin.UserGrantRole(ctx, user, role)
		step("grant "+user+" role "+role, err)
	}
	restricted("lockbench", "lockbench-run", external.KeyPrefix(etcdAuthRunID))
	restricted("outsider", "other-only", "other:")
	_, err = admin.AuthEnable(ctx)
	step("enable auth", err)
	root := etcdClient(t, endpoints, "root", etcdRootPassword)
	// Someone else's key, and one under the run's prefix that only the clean-up deletes.
	for _, k := range []string{etcdOutsideKey, external.KeyPrefix(etcdAuthRunID) + "planted"} {
		_, err := root.Put(ctx, k, "1")
		step("put "+k+" as root", err)
	}
	return authEtcd{endpoints: endpoints, root: root}
}

// deploymentFile writes a deployment naming the cluster as user, the password in a file.
func (e authEtcd) deploymentFile(t *testing.T, dir, user string) string {
	t.Helper()
	pw := filepath.Join(dir, "etcd.password")
	if err := os.WriteFile(pw, []byte(aclPassword+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf("etcd:\n  endpoints: [%q]\n  auth:\n    username: %s\n    password_file: %s\n", e.endpoints[0], user, pw)
	path := filepath.Join(dir, "d.yaml")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runEtcdAuth runs strategy etcd on the deployment under the fixed run id.
func runEtcdAuth(deployment, out string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := runOnDeployment([]string{"run", "--deployment", deployment, "--run-id", etcdAuthRunID, "--strategies", "etcd",
		"--clients", "2", "--keys", "per-client", "--duration", "1s", "--warmup", "200ms", "--intervals", "2",
		"--no-report", "--progress", "plain", "--out", out}, nil, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// keys lists every key of the cluster, as root.
func (e authEtcd) keys(t *testing.T) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := e.root.Get(ctx, "\x00", clientv3.WithFromKey(), clientv3.WithKeysOnly())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, kv := range resp.Kvs {
		out = append(out, string(kv.Key))
	}
	return out
}

// TestExternalEtcdAuthStaysInItsPrefix runs strategy etcd as a user whose role allows
// read-write on lockbench:<run-id>: only: every read and write of the run (probe,
// connection check, locks, warm-up, clean-up) must be under it, or the cell fails with
// permission denied. Afterwards no key is left under the prefix (one planted there by
// root is gone), someone else's key is untouched, and the password is in nothing written.
func TestExternalEtcdAuthStaysInItsPrefix(t *testing.T) {
	t.Parallel()
	e := startAuthEtcd(t)
	// The role is enforced: the user may not read outside its prefix.
	user := etcdClient(t, e.endpoints, "lockbench", aclPassword)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := user.Get(ctx, etcdOutsideKey); !errors.Is(err, rpctypes.ErrPermissionDenied) {
		t.Fatalf("user lockbench reading %s: err %v, want permission denied (is auth on?)", etcdOutsideKey, err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runEtcdAuth(e.deploymentFile(t, dir, "lockbench"), out)
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	r, err := resultsdir.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cells) != 1 {
		t.Fatalf("%d cells, want 1", len(r.Cells))
	}
	for _, c := range r.Cells {
		if c.Granted == 0 || len(c.Errors) > 0 {
			t.Errorf("%s: granted %d, errors %v", c.Strategy, c.Granted, c.Errors)
		}
		t.Logf("%s: attempts %d, granted %d, refused %d, errors %v", c.Name, c.Attempts, c.Granted, c.Refused, c.Errors)
	}
	if v := r.Environment.External["etcd"]; len(v) != 1 || v[0].Version == "" || strings.HasPrefix(v[0].Version, "unknown") {
		t.Errorf("etcd servers recorded %+v, want its address and version (Status needs no key permission)", v)
	}
	if got := e.keys(t); strings.Join(got, ",") != etcdOutsideKey {
		t.Errorf("keys after the run = %q, want only %s (nothing under %s)", got, etcdOutsideKey, external.KeyPrefix(etcdAuthRunID))
	}
	assertSecretNowhere(t, out, stdout, stderr)
}

// TestExternalEtcdAuthWithoutThePrefixFails is the check above on a user that must
// fail: its role allows other: only, so the run is refused by etcd, says "permission
// denied", exits non-zero and writes the password nowhere; the keys stay as they were.
func TestExternalEtcdAuthWithoutThePrefixFails(t *testing.T) {
	t.Parallel()
	e := startAuthEtcd(t)
	before := e.keys(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runEtcdAuth(e.deploymentFile(t, dir, "outsider"), out)
	if code == 0 {
		t.Fatalf("exit 0 for a user without the run's prefix\nstdout %s\nstderr %s", stdout, stderr)
	}
	if !strings.Contains(stderr, rpctypes.ErrPermissionDenied.Error()) {
		t.Errorf("exit %d, stderr %q: want etcd's %q", code, stderr, rpctypes.ErrPermissionDenied.Error())
	}
	for i, o := range []string{stdout, stderr} {
		if strings.Contains(o, aclPassword) {
			t.Errorf("output %d holds the password", i)
		}
	}
	if _, err := os.Stat(out); err == nil {
		assertSecretNowhere(t, out)
	}
	if got := e.keys(t); strings.Join(got, ",") != strings.Join(before, ",") {
		t.Errorf("keys after the refused run = %q, want %q as before", got, before)
	}
	t.Logf("exit %d, stderr:\n%s", code, stderr)
}
